import i18next, { type i18n as I18n } from "i18next";
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

export function createI18n({ search = "", storage }: I18nOptions = {}): I18n {
  const instance = i18next.createInstance();
  void instance.init({
    lng: detectLanguage(search, storage),
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...SUPPORTED_LANGUAGES],
    resources: { en: { common: en }, es: { common: es } },
    ns: ["common"],
    defaultNS: "common",
    // Resources are bundled, so there is nothing to wait for; the first render is already translated.
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  // Every later change (the language switch) is remembered and shown to assistive technology.
  instance.on("languageChanged", (lng) => {
    const language = toLanguage(lng) ?? DEFAULT_LANGUAGE;
    storage?.setItem(LOCALE_STORAGE_KEY, language);
    if (typeof document !== "undefined") document.documentElement.lang = language;
  });
  if (typeof document !== "undefined") document.documentElement.lang = instance.language;
  return instance;
}

/** Each app brings its own strings under its own namespace. */
export function addTranslations(instance: I18n, namespace: string, translations: Translations): void {
  for (const language of SUPPORTED_LANGUAGES) {
    if (!instance.hasResourceBundle(language, namespace)) {
      instance.addResourceBundle(language, namespace, translations[language], true, true);
    }
  }
}
