/**
 * The fixed words of a published page, in the page's language (`pageLocale`), and its writing
 * direction. Languages without a table here get English; the direction holds for any language.
 */
import { memo } from './memo.js';

export interface PageStrings {
  /** "Portrait of {name}": the avatar's alt text. */
  portraitOf: string;
  /** "Message me on {service}": a messenger block without its own label. */
  messageOn: string;
  /** "Open on {provider}": the link under an embedded player. */
  openOn: string;
  /** "Play {title}": the poster of a player that loads on tap. */
  play: string;
  /** "{provider} player": an embed without a title. */
  player: string;
  /** "Links of {name}": the description of a page without a bio. */
  linksOf: string;
  /** "Made with {service} · make yours": the footer's one line, linking to the service's home page. */
  madeWith: string;
  adultNote: string;
  adultGo: string;
  /** The notice a page for adults shows first, and the link that shows the page. */
  adultPage: string;
  adultEnter: string;
  /**
   * The chips under a card that open its app: a noun, short enough to stay on one line in a
   * half-width tile at 320 px (a sentence, "Open in the iOS app", wrapped inside the chip).
   */
  iosApp: string;
  androidApp: string;
  /** The contact card's button, which downloads its vCard. */
  saveContact: string;
}

const en: PageStrings = {
  portraitOf: 'Portrait of {}',
  messageOn: 'Message me on {}',
  openOn: 'Open on {}',
  play: 'Play {}',
  player: '{} player',
  linksOf: 'Links of {}',
  madeWith: 'Made with {} · make yours',
  adultNote: 'This link leads to content for adults only.',
  adultGo: 'I am 18 or older, continue',
  adultPage: 'This page is for adults only. Continue only if you are 18 or older.',
  adultEnter: 'I am 18 or older, show the page',
  iosApp: 'iOS app',
  androidApp: 'Android app',
  saveContact: 'Save contact',
};

const TABLES: Record<string, PageStrings> = {
  en,
  es: {
    portraitOf: 'Retrato de {}',
    messageOn: 'Escríbeme por {}',
    openOn: 'Abrir en {}',
    play: 'Reproducir {}',
    player: 'Reproductor de {}',
    linksOf: 'Enlaces de {}',
    madeWith: 'Hecho con {} · crea la tuya',
    adultNote: 'Este enlace lleva a contenido solo para adultos.',
    adultGo: 'Tengo 18 años o más, continuar',
    adultPage: 'Esta página es solo para adultos. Continúa solo si tienes 18 años o más.',
    adultEnter: 'Tengo 18 años o más, ver la página',
    iosApp: 'App de iOS',
    androidApp: 'App de Android',
    saveContact: 'Guardar contacto',
  },
  pt: {
    portraitOf: 'Retrato de {}',
    messageOn: 'Fale comigo no {}',
    openOn: 'Abrir no {}',
    play: 'Reproduzir {}',
    player: 'Player do {}',
    linksOf: 'Links de {}',
    madeWith: 'Feito com {} · crie a sua',
    adultNote: 'Este link leva a conteúdo apenas para adultos.',
    adultGo: 'Tenho 18 anos ou mais, continuar',
    adultPage: 'Esta página é apenas para adultos. Continue só se tiver 18 anos ou mais.',
    adultEnter: 'Tenho 18 anos ou mais, ver a página',
    iosApp: 'App para iOS',
    androidApp: 'App para Android',
    saveContact: 'Salvar contato',
  },
  fr: {
    portraitOf: 'Portrait de {}',
    messageOn: 'Écrivez-moi sur {}',
    openOn: 'Ouvrir sur {}',
    play: 'Lire {}',
    player: 'Lecteur {}',
    linksOf: 'Liens de {}',
    madeWith: 'Fait avec {} · créez la vôtre',
    adultNote: 'Ce lien mène à un contenu réservé aux adultes.',
    adultGo: 'J’ai 18 ans ou plus, continuer',
    adultPage: 'Cette page est réservée aux adultes. Continuez seulement si vous avez 18 ans ou plus.',
    adultEnter: 'J’ai 18 ans ou plus, voir la page',
    iosApp: 'App iOS',
    androidApp: 'App Android',
    saveContact: 'Enregistrer le contact',
  },
  de: {
    portraitOf: 'Porträt von {}',
    messageOn: 'Schreib mir auf {}',
    openOn: 'Auf {} öffnen',
    play: '{} abspielen',
    player: '{}-Player',
    linksOf: 'Links von {}',
    madeWith: 'Gemacht mit {} · mach deine eigene',
    adultNote: 'Dieser Link führt zu Inhalten nur für Erwachsene.',
    adultGo: 'Ich bin 18 oder älter, weiter',
    adultPage: 'Diese Seite ist nur für Erwachsene. Fahre nur fort, wenn du 18 oder älter bist.',
    adultEnter: 'Ich bin 18 oder älter, Seite zeigen',
    iosApp: 'iOS-App',
    androidApp: 'Android-App',
    saveContact: 'Kontakt speichern',
  },
  uk: {
    portraitOf: 'Портрет: {}',
    messageOn: 'Напишіть мені в {}',
    openOn: 'Відкрити в {}',
    play: 'Відтворити: {}',
    player: 'Плеєр {}',
    linksOf: 'Посилання {}',
    madeWith: 'Зроблено з {} · створіть свою',
    adultNote: 'Це посилання веде до вмісту лише для дорослих.',
    adultGo: 'Мені є 18, продовжити',
    adultPage: 'Ця сторінка лише для дорослих. Продовжуйте, лише якщо вам є 18.',
    adultEnter: 'Мені є 18, показати сторінку',
    iosApp: 'Застосунок iOS',
    androidApp: 'Застосунок Android',
    saveContact: 'Зберегти контакт',
  },
  ar: {
    portraitOf: 'صورة {}',
    messageOn: 'راسلني على {}',
    openOn: 'افتح على {}',
    play: 'تشغيل {}',
    player: 'مشغل {}',
    linksOf: 'روابط {}',
    madeWith: 'صُنعت باستخدام {} · أنشئ صفحتك',
    adultNote: 'يؤدي هذا الرابط إلى محتوى للبالغين فقط.',
    adultGo: 'عمري 18 عامًا أو أكثر، متابعة',
    adultPage: 'هذه الصفحة للبالغين فقط. تابع فقط إذا كان عمرك 18 عامًا أو أكثر.',
    adultEnter: 'عمري 18 عامًا أو أكثر، اعرض الصفحة',
    iosApp: 'تطبيق iOS',
    androidApp: 'تطبيق Android',
    saveContact: 'حفظ جهة الاتصال',
  },
  he: {
    portraitOf: 'דיוקן של {}',
    messageOn: 'שלחו לי הודעה ב־{}',
    openOn: 'פתיחה ב־{}',
    play: 'הפעלה: {}',
    player: 'נגן {}',
    linksOf: 'הקישורים של {}',
    madeWith: 'נוצר עם {} · צרו דף משלכם',
    adultNote: 'קישור זה מוביל לתוכן למבוגרים בלבד.',
    adultGo: 'אני בן/בת 18 ומעלה, המשך',
    adultPage: 'דף זה מיועד למבוגרים בלבד. המשיכו רק אם אתם בני 18 ומעלה.',
    adultEnter: 'אני בן/בת 18 ומעלה, הצגת הדף',
    iosApp: 'אפליקציית iOS',
    androidApp: 'אפליקציית Android',
    saveContact: 'שמירת איש הקשר',
  },
};

/** The languages written right to left: Arabic, Hebrew, Persian, Urdu, and a few more. */
const RTL = new Set(['ar', 'he', 'iw', 'fa', 'ur', 'ps', 'sd', 'ug', 'yi', 'dv', 'ckb']);

/** The primary language subtag of a locale ("pt-BR" -> "pt"), lower-cased. */
function languageOf(locale: string): string {
  return locale.split(/[-_]/)[0].toLowerCase();
}

/** The page strings for a locale; English when the language has none. */
export const stringsFor = memo((locale): PageStrings => TABLES[languageOf(locale)] ?? en);

/** `rtl` for languages written right to left, else `ltr`. */
export const directionOf = memo((locale): 'ltr' | 'rtl' => (RTL.has(languageOf(locale)) ? 'rtl' : 'ltr'));

/** A string with its `{}` filled in. */
export function fill(template: string, value: string): string {
  const at = template.indexOf('{}');
  return at < 0 ? template : template.slice(0, at) + value + template.slice(at + 2);
}

/** The languages with their own table (tests check each has every string). */
export const TRANSLATED = Object.keys(TABLES);
