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
  },
  es: {
    page: 'Página',
    links: 'Enlaces',
    social: 'Redes sociales',
    contact: 'Contacto',
    featured: 'destacado',
    twin: 'la página en Markdown, la mejor versión para leer',
    html: 'la página tal como la ven las personas',
  },
  pt: {
    page: 'Página',
    links: 'Links',
    social: 'Redes sociais',
    contact: 'Contato',
    featured: 'destaque',
    twin: 'a página em Markdown, a melhor versão para ler',
    html: 'a página como as pessoas a veem',
  },
  fr: {
    page: 'Page',
    links: 'Liens',
    social: 'Réseaux sociaux',
    contact: 'Contact',
    featured: 'à la une',
    twin: 'la page en Markdown, la meilleure version à lire',
    html: 'la page telle que les gens la voient',
  },
  de: {
    page: 'Seite',
    links: 'Links',
    social: 'Soziale Netzwerke',
    contact: 'Kontakt',
    featured: 'hervorgehoben',
    twin: 'die Seite als Markdown, die beste Fassung zum Lesen',
    html: 'die Seite, wie Menschen sie sehen',
  },
  uk: {
    page: 'Сторінка',
    links: 'Посилання',
    social: 'Соцмережі',
    contact: 'Контакти',
    featured: 'головне',
    twin: 'сторінка в Markdown, найкраща версія для читання',
    html: 'сторінка такою, як її бачать люди',
  },
  ar: {
    page: 'الصفحة',
    links: 'الروابط',
    social: 'التواصل الاجتماعي',
    contact: 'التواصل',
    featured: 'مميز',
    twin: 'الصفحة بصيغة Markdown، أفضل نسخة للقراءة',
    html: 'الصفحة كما يراها الناس',
  },
  he: {
    page: 'דף',
    links: 'קישורים',
    social: 'רשתות חברתיות',
    contact: 'יצירת קשר',
    featured: 'מומלץ',
    twin: 'הדף בפורמט Markdown, הגרסה הטובה ביותר לקריאה',
    html: 'הדף כפי שאנשים רואים אותו',
  },
};

/** The strings for a page locale (`pt-BR` reads as `pt`). */
export function markdownStrings(locale: string): MarkdownStrings {
  const lang = locale.toLowerCase().split(/[-_]/)[0];
  return Object.hasOwn(STRINGS, lang) ? STRINGS[lang] : STRINGS.en;
}
