/**
 * The fixed words of a page's Markdown twin (and its llms.txt), by the page's language: the
 * section names and the featured mark. English for a language not listed here.
 */

export interface MarkdownStrings {
  /** Before the page's own address, under the bio. */
  page: string;
  links: string;
  social: string;
  contact: string;
  /** After the featured link. */
  featured: string;
  /** The llms.txt line that points at the twin. */
  twin: string;
  /** The llms.txt line that points at the HTML page. */
  html: string;
  /** The fields of a contact card, and its vCard's link. */
  phone: string;
  email: string;
  website: string;
  address: string;
  vcard: string;
}

const STRINGS: Record<string, MarkdownStrings> = {
  en: {
    page: 'Page',
    links: 'Links',
    social: 'Social',
    contact: 'Contact',
    featured: 'featured',
    twin: 'the page as Markdown, the best version to read',
    html: 'the page as people see it',

    phone: 'Phone',
    email: 'E-mail',
    website: 'Website',
    address: 'Address',
    vcard: 'Save contact (vCard)',
  },
  es: {
    page: 'Página',
    links: 'Enlaces',
    social: 'Redes sociales',
    contact: 'Contacto',
    featured: 'destacado',
    twin: 'la página en Markdown, la mejor versión para leer',
    html: 'la página tal como la ven las personas',

    phone: 'Teléfono',
    email: 'Correo',
    website: 'Sitio web',
    address: 'Dirección',
    vcard: 'Guardar contacto (vCard)',
  },
  pt: {
    page: 'Página',
    links: 'Links',
    social: 'Redes sociais',
    contact: 'Contato',
    featured: 'destaque',
    twin: 'a página em Markdown, a melhor versão para ler',
    html: 'a página como as pessoas a veem',

    phone: 'Telefone',
    email: 'E-mail',
    website: 'Site',
    address: 'Endereço',
    vcard: 'Salvar contato (vCard)',
  },
  fr: {
    page: 'Page',
    links: 'Liens',
    social: 'Réseaux sociaux',
    contact: 'Contact',
    featured: 'à la une',
    twin: 'la page en Markdown, la meilleure version à lire',
    html: 'la page telle que les gens la voient',

    phone: 'Téléphone',
    email: 'E-mail',
    website: 'Site web',
    address: 'Adresse',
    vcard: 'Enregistrer le contact (vCard)',
  },
  de: {
    page: 'Seite',
    links: 'Links',
    social: 'Soziale Netzwerke',
    contact: 'Kontakt',
    featured: 'hervorgehoben',
    twin: 'die Seite als Markdown, die beste Fassung zum Lesen',
    html: 'die Seite, wie Menschen sie sehen',

    phone: 'Telefon',
    email: 'E-Mail',
    website: 'Website',
    address: 'Adresse',
    vcard: 'Kontakt speichern (vCard)',
  },
  uk: {
    page: 'Сторінка',
    links: 'Посилання',
    social: 'Соцмережі',
    contact: 'Контакти',
    featured: 'головне',
    twin: 'сторінка в Markdown, найкраща версія для читання',
    html: 'сторінка такою, як її бачать люди',

    phone: 'Телефон',
    email: 'Ел. пошта',
    website: 'Сайт',
    address: 'Адреса',
    vcard: 'Зберегти контакт (vCard)',
  },
  ar: {
    page: 'الصفحة',
    links: 'الروابط',
    social: 'التواصل الاجتماعي',
    contact: 'التواصل',
    featured: 'مميز',
    twin: 'الصفحة بصيغة Markdown، أفضل نسخة للقراءة',
    html: 'الصفحة كما يراها الناس',

    phone: 'الهاتف',
    email: 'البريد الإلكتروني',
    website: 'الموقع',
    address: 'العنوان',
    vcard: 'حفظ جهة الاتصال (vCard)',
  },
  he: {
    page: 'דף',
    links: 'קישורים',
    social: 'רשתות חברתיות',
    contact: 'יצירת קשר',
    featured: 'מומלץ',
    twin: 'הדף בפורמט Markdown, הגרסה הטובה ביותר לקריאה',
    html: 'הדף כפי שאנשים רואים אותו',

    phone: 'טלפון',
    email: 'דוא״ל',
    website: 'אתר',
    address: 'כתובת',
    vcard: 'שמירת איש הקשר (vCard)',
  },
};

/** The strings for a page locale (`pt-BR` reads as `pt`). */
export function markdownStrings(locale: string): MarkdownStrings {
  const lang = locale.toLowerCase().split(/[-_]/)[0];
  return Object.hasOwn(STRINGS, lang) ? STRINGS[lang] : STRINGS.en;
}
