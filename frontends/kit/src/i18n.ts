import { en } from "./locales/en.ts";
import { es } from "./locales/es.ts";

/** Spec 002 §9: default en, Spanish supported, stored under tt-locale, set with ?lang=. */
export const SUPPORTED_LANGUAGES = ["en", "es"] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";
export const LOCALE_STORAGE_KEY = "tt-locale";
export const LANGUAGE_NAMES: Record<Language, string> = { en: "English", es: "Español" };

export function toLanguage(value: string | null | undefined): Language | undefined {
  // "es-MX" and "ES" are Spanish too.
  const primary = value?.trim().toLowerCase().split(/[-_]/)[0];
  return SUPPORTED_LANGUAGES.find((lang) => lang === primary);
}

/** ?lang= wins and is remembered; otherwise the remembered choice; otherwise English. */
export function detectLanguage(search: string, storage: Storage | undefined): Language {
  const fromQuery = toLanguage(new URLSearchParams(search).get("lang"));
  if (fromQuery) {
    storage?.setItem(LOCALE_STORAGE_KEY, fromQuery);
    return fromQuery;
  }
  return toLanguage(storage?.getItem(LOCALE_STORAGE_KEY)) ?? DEFAULT_LANGUAGE;
}

export type Translations = Record<Language, Record<string, unknown>>;

export interface I18nOptions {
  search?: string;
  storage?: Storage | undefined;
}

/**
 * Options of a translation: values for its `{{placeholders}}`, `count` (which also picks the plural form, `key_one`,
 * `key_other`… by the language's rules), a `defaultValue` for a missing key, and `lng` for another language.
 */
export type TranslateOptions = Record<string, unknown> & { count?: number; defaultValue?: string; lng?: string };

/** A key ("errors.generic", or "common:errors.generic" with its namespace) → its text in the language. */
export type TFunction = (key: string, options?: TranslateOptions) => string;

/**
 * The page's strings and language: the part of i18next's interface the apps use, with i18next's rules for keys
 * (namespace ":", nesting "."), `{{placeholders}}`, plural suffixes and the fallback to English; no escaping (React
 * escapes). Not i18next itself: it was 15 KB gzip of the first load for these few rules (issue 24).
 */
export interface I18n {
  /** The current language. */
  readonly language: Language;
  /** Sets the language (a tag such as "es-MX" counts as its language; an unsupported one as English). */
  changeLanguage(language: string): Promise<TFunction>;
  /** Translates in the current language, in the "common" namespace unless the key names one. */
  t: TFunction;
  /** A translation function for one language (null: the current one) and one namespace. */
  getFixedT(language: string | null, namespace?: string): TFunction;
  on(event: "languageChanged", listener: (language: Language) => void): void;
  off(event: "languageChanged", listener: (language: Language) => void): void;
  hasResourceBundle(language: Language, namespace: string): boolean;
  addResourceBundle(language: Language, namespace: string, resources: Record<string, unknown>): void;
}

const DEFAULT_NAMESPACE = "common";

/** The value at a key: nested objects by ".", where a key may also hold dots itself (i18next's deep find). */
function lookUp(resources: unknown, parts: string[]): unknown {
  if (parts.length === 0) return resources;
  if (typeof resources !== "object" || resources === null) return undefined;
  for (let taken = parts.length; taken > 0; taken--) {
    const key = parts.slice(0, taken).join(".");
    if (Object.hasOwn(resources, key)) {
      const found = lookUp((resources as Record<string, unknown>)[key], parts.slice(taken));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** `{{name}}`, `{{- name}}` and `{{user.name}}` from the options; an unknown placeholder stays as it is. */
function interpolate(text: string, options: TranslateOptions | undefined): string {
  if (!options || !text.includes("{{")) return text;
  return text.replace(/\{\{-?\s*([^{}]+?)\s*\}\}/g, (placeholder, path: string) => {
    const value = lookUp(options, path.split("."));
    if (value === undefined) return placeholder;
    return value === null ? "" : String(value);
  });
}

export function createI18n({ search = "", storage }: I18nOptions = {}): I18n {
  const resources: Record<Language, Record<string, Record<string, unknown>>> = {
    en: { [DEFAULT_NAMESPACE]: en },
    es: { [DEFAULT_NAMESPACE]: es },
  };
  const listeners = new Set<(language: Language) => void>();
  const pluralRules = new Map<Language, Intl.PluralRules>();
  const pluralOf = (language: Language, count: number) => {
    let rules = pluralRules.get(language);
    if (!rules) pluralRules.set(language, (rules = new Intl.PluralRules(language)));
    return rules.select(count);
  };

  const translate = (language: Language, namespace: string, key: string, options?: TranslateOptions): string => {
    let ns = namespace;
    let path = key;
    const colon = key.indexOf(":");
    if (colon > -1) {
      ns = key.slice(0, colon);
      path = key.slice(colon + 1);
    }
    const lng = toLanguage(options?.lng) ?? language;
    const count = options?.count;
    const parts = path.split(".");
    for (const candidate of lng === DEFAULT_LANGUAGE ? [lng] : [lng, DEFAULT_LANGUAGE]) {
      const tables = resources[candidate][ns];
      // A form the table leaves out (Spanish "many", for a million) is its "other" in that language, not English.
      const keys =
        typeof count === "number" ? [`${path}_${pluralOf(candidate, count)}`, `${path}_other`, path] : [path];
      for (const name of keys) {
        const text = name === path ? lookUp(tables, parts) : lookUp(tables, name.split("."));
        if (typeof text === "string") return interpolate(text, options);
      }
    }
    return options?.defaultValue === undefined ? path : interpolate(options.defaultValue, options);
  };

  let language = detectLanguage(search, storage);
  const instance: I18n = {
    get language() {
      return language;
    },
    changeLanguage: async (next) => {
      language = toLanguage(next) ?? DEFAULT_LANGUAGE;
      for (const listener of [...listeners]) listener(language);
      return instance.t;
    },
    t: (key, options) => translate(language, DEFAULT_NAMESPACE, key, options),
    getFixedT: (fixed, namespace = DEFAULT_NAMESPACE) => {
      const lng = toLanguage(fixed);
      return (key, options) => translate(lng ?? language, namespace, key, options);
    },
    on: (_event, listener) => void listeners.add(listener),
    off: (_event, listener) => void listeners.delete(listener),
    hasResourceBundle: (lng, namespace) => Object.hasOwn(resources[lng], namespace),
    addResourceBundle: (lng, namespace, bundle) => void (resources[lng][namespace] = bundle),
  };
  // Every later change (the language switch) is remembered and shown to assistive technology.
  instance.on("languageChanged", (lng) => {
    storage?.setItem(LOCALE_STORAGE_KEY, lng);
    if (typeof document !== "undefined") document.documentElement.lang = lng;
  });
  if (typeof document !== "undefined") document.documentElement.lang = instance.language;
  return instance;
}

/** Each app brings its own strings under its own namespace. */
export function addTranslations(instance: I18n, namespace: string, translations: Translations): void {
  for (const language of SUPPORTED_LANGUAGES) {
    if (!instance.hasResourceBundle(language, namespace)) {
      instance.addResourceBundle(language, namespace, translations[language]);
    }
  }
}
