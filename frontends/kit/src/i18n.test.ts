import { describe, expect, it } from "vitest";
import { addTranslations, createI18n, detectLanguage, LOCALE_STORAGE_KEY } from "./i18n.ts";
import { MemoryStorage } from "./testing/memory-storage.ts";

describe("language (spec 002 §2, §9)", () => {
  it("defaults to English", () => {
    const i18n = createI18n({ storage: new MemoryStorage() });
    expect(i18n.language).toBe("en");
    expect(i18n.t("errors.generic")).toBe("Something went wrong, please try again.");
  });

  it("takes ?lang= and remembers it under tt-locale", () => {
    const storage = new MemoryStorage();
    const i18n = createI18n({ search: "?lang=es", storage });
    expect(i18n.language).toBe("es");
    expect(storage.getItem(LOCALE_STORAGE_KEY)).toBe("es");
    expect(i18n.t("errors.generic")).toBe("Algo salió mal, por favor inténtalo de nuevo.");
    // The next visit, without the parameter, is still in Spanish.
    expect(createI18n({ storage }).language).toBe("es");
  });

  it("reads regional and upper-case tags as their language and ignores unsupported ones", () => {
    const storage = new MemoryStorage();
    expect(detectLanguage("?lang=ES-mx", storage)).toBe("es");
    expect(detectLanguage("?lang=fr", storage)).toBe("es");
    expect(detectLanguage("?lang=fr", new MemoryStorage())).toBe("en");
  });

  it("remembers a language chosen later and marks the document with it", async () => {
    const storage = new MemoryStorage();
    const i18n = createI18n({ storage });
    await i18n.changeLanguage("es");
    expect(storage.getItem(LOCALE_STORAGE_KEY)).toBe("es");
    expect(document.documentElement.lang).toBe("es");
    await i18n.changeLanguage("en");
    expect(storage.getItem(LOCALE_STORAGE_KEY)).toBe("en");
  });

  it("adds an app's own namespace once", () => {
    const i18n = createI18n({ storage: new MemoryStorage() });
    addTranslations(i18n, "room", { en: { title: "Rooms" }, es: { title: "Salas" } });
    addTranslations(i18n, "room", { en: { title: "ignored" }, es: { title: "ignored" } });
    expect(i18n.t("room:title")).toBe("Rooms");
    expect(i18n.t("room:title", { lng: "es" })).toBe("Salas");
  });

  it("translates by i18next's rules: placeholders, plural forms, defaults, the English fallback", () => {
    const i18n = createI18n({ storage: new MemoryStorage() });
    addTranslations(i18n, "demo", {
      en: {
        songs_one: "{{count}} song",
        songs_other: "{{count}} songs",
        nested: { greeting: "Hi {{user.name}}, {{missing}}" },
        "dotted.key": "flat",
        onlyEnglish: "English only",
      },
      es: { songs_one: "{{count}} canción", songs_other: "{{count}} canciones", nested: { greeting: "Hola" } },
    });
    const t = i18n.getFixedT("en", "demo");
    expect(t("songs", { count: 1 })).toBe("1 song");
    expect(t("songs", { count: 0 })).toBe("0 songs");
    expect(t("nested.greeting", { user: { name: "Ada" } })).toBe("Hi Ada, {{missing}}");
    expect(t("dotted.key")).toBe("flat");
    expect(t("absent.key")).toBe("absent.key");
    expect(t("absent", { defaultValue: "room {{n}}", n: 2 })).toBe("room 2");
    expect(t("common:errors.generic")).toBe("Something went wrong, please try again.");
    const es = i18n.getFixedT("es", "demo");
    expect(es("songs", { count: 3 })).toBe("3 canciones");
    // Spanish's "many" form (a million) is the Spanish "other" when the table has no songs_many.
    expect(es("songs", { count: 1_000_000 })).toBe("1000000 canciones");
    expect(es("onlyEnglish")).toBe("English only");
    expect(t("songs", { count: 1, lng: "es" })).toBe("1 canción");
  });

  it("takes a regional tag as its language and anything unsupported as English, telling listeners", async () => {
    const i18n = createI18n({ storage: new MemoryStorage() });
    const heard: string[] = [];
    i18n.on("languageChanged", (language) => heard.push(language));
    await i18n.changeLanguage("es-MX");
    await i18n.changeLanguage("fr");
    expect(heard).toEqual(["es", "en"]);
    expect(i18n.language).toBe("en");
  });
});
