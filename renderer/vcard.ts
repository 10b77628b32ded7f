/**
 * A page's contact card as a vCard 4.0 (RFC 6350), the file `contact.vcf` the card's button
 * saves: written with vcard4, which escapes, folds and checks every property.
 */
import {
  AdrProperty,
  EmailProperty,
  FNProperty,
  OrgProperty,
  SpecialValueType,
  TelProperty,
  TextType,
  TitleProperty,
  URIType,
  URLProperty,
  ValueParameter,
  VCARD,
} from 'vcard4';
import type { ContactBlock } from '../core/model.js';
import { telUri } from './links.js';

/** The card's vCard text (CRLF line ends, as RFC 6350 asks). */
export function contactVcard(card: ContactBlock): string {
  const properties: ConstructorParameters<typeof VCARD>[0] = [new FNProperty([], new TextType(card.name))];
  if (card.organisation) {
    properties.push(new OrgProperty([], new SpecialValueType('OrgProperty', [new TextType(card.organisation)])));
  }
  if (card.title) properties.push(new TitleProperty([], new TextType(card.title)));
  for (const phone of card.phones) {
    const uri = new URIType(telUri(phone));
    properties.push(new TelProperty([new ValueParameter(uri)], uri));
  }
  for (const email of card.emails) properties.push(new EmailProperty([], new TextType(email)));
  if (card.website) properties.push(new URLProperty([], new URIType(card.website)));
  if (card.address) {
    // The address as the owner wrote it, whole, in the street component (no part of it guessed).
    const parts = [undefined, undefined, new TextType(card.address), undefined, undefined, undefined, undefined];
    properties.push(new AdrProperty([], new SpecialValueType('AdrProperty', parts)));
  }
  return new VCARD(properties).repr();
}
