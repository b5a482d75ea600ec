import {
  createContext,
  lazy,
  useCallback,
  useContext,
  useMemo,
  useState,
  useSyncExternalStore,
  type ComponentType,
  type LazyExoticComponent,
  type ReactNode,
} from "react";
import { errorText } from "./error-text.ts";
import { addTranslations, type Translations } from "./i18n.ts";
import type { Kit } from "./kit.ts";
import { isSignedIn, useSessionSnapshot, type SessionSnapshot } from "./session-store.ts";

const KitContext = createContext<Kit | null>(null);

export function KitProvider({ kit, children }: { kit: Kit; children: ReactNode }) {
  return <KitContext value={kit}>{children}</KitContext>;
}

export function useKit(): Kit {
  const kit = useContext(KitContext);
  if (!kit) throw new Error("useKit must be used inside <KitProvider>");
  return kit;
}

type Provider = ComponentType<{ children: ReactNode }>;

// TanStack Query's provider, from its own chunk. A failed load (network blip) makes a new lazy component, so that an
// error boundary's retry loads it again (React.lazy keeps a rejection for good).
const lazyQueryProvider = (): LazyExoticComponent<Provider> =>
  lazy(() =>
    import("./query-provider.tsx").catch((error: unknown) => {
      QueryProvider = lazyQueryProvider();
      throw error;
    }),
  );
let QueryProvider = lazyQueryProvider();
// The provider itself once its chunk has run (query-provider.tsx says so): later boundaries render it at once.
let loadedQueryProvider: Provider | undefined;

/** Called by query-provider.tsx when its chunk runs (loaded by kit.loadQueryClient(), a boundary or a test kit). */
export function setLoadedQueryProvider(provider: Provider): void {
  loadedQueryProvider = provider;
}

/**
 * Gives what it wraps the kit's query client (TanStack Query's context), loading TanStack Query first: it suspends
 * until then, like a lazy screen, so it goes around the screens that query (the shell's lazy pages, the remotes),
 * never around the first screen. Once TanStack Query is there, a new boundary does not suspend.
 */
export function QueryBoundary({ children }: { children: ReactNode }) {
  // Each boundary keeps the provider it started with, so what it wraps is never remounted when the chunk arrives.
  const [Provider] = useState(() => loadedQueryProvider ?? QueryProvider);
  return <Provider>{children}</Provider>;
}

export interface SessionState extends SessionSnapshot {
  signedIn: boolean;
}

export function useSession(): SessionState {
  const { session } = useKit();
  const snapshot = useSessionSnapshot(session);
  return { ...snapshot, signedIn: isSignedIn(snapshot) };
}

/**
 * Translations for one namespace, re-rendering on a language change; an app's strings join the page's
 * i18n on first use (a remote has no start-up code of its own inside the shell). A few lines over the kit's
 * own translator instead of react-i18next over i18next, which would add 25 KB gzip to the first page load.
 */
export function useAppTranslation(namespace: string, translations?: Translations) {
  const { i18n } = useKit();
  if (translations) addTranslations(i18n, namespace, translations);
  const subscribe = useCallback(
    (onChange: () => void) => {
      i18n.on("languageChanged", onChange);
      return () => i18n.off("languageChanged", onChange);
    },
    [i18n],
  );
  const language = useSyncExternalStore(subscribe, () => i18n.language);
  const t = useMemo(() => i18n.getFixedT(language, namespace), [i18n, language, namespace]);
  return { t, i18n, language };
}

/** errorText with the generic text in the current language. */
export function useErrorText(): (error: unknown) => string {
  const { t } = useAppTranslation("common");
  return useCallback((error: unknown) => errorText(error, t("errors.generic")), [t]);
}
