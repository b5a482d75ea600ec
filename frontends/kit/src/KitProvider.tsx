import type { DescService } from "@bufbuild/protobuf";
import { createClient, type Client } from "@connectrpc/connect";
import { QueryClientProvider } from "@tanstack/react-query";
import { createContext, useCallback, useContext, useMemo, type ReactNode } from "react";
import { I18nextProvider, useTranslation } from "react-i18next";
import { errorText } from "./error-text.ts";
import { addTranslations, type Translations } from "./i18n.ts";
import type { Kit } from "./kit.ts";
import { isSignedIn, useSessionSnapshot, type SessionSnapshot } from "./session-store.ts";

const KitContext = createContext<Kit | null>(null);

export function KitProvider({ kit, children }: { kit: Kit; children: ReactNode }) {
  return (
    <KitContext value={kit}>
      <QueryClientProvider client={kit.queryClient}>
        <I18nextProvider i18n={kit.i18n}>{children}</I18nextProvider>
      </QueryClientProvider>
    </KitContext>
  );
}

export function useKit(): Kit {
  const kit = useContext(KitContext);
  if (!kit) throw new Error("useKit must be used inside <KitProvider>");
  return kit;
}

/** A typed client for one service over the page's transport. */
export function useClient<T extends DescService>(service: T): Client<T> {
  const { transport } = useKit();
  return useMemo(() => createClient(service, transport), [service, transport]);
}

export interface SessionState extends SessionSnapshot {
  signedIn: boolean;
}

export function useSession(): SessionState {
  const { session } = useKit();
  const snapshot = useSessionSnapshot(session);
  return { ...snapshot, signedIn: isSignedIn(snapshot) };
}

/** errorText with the generic text in the current language. */
export function useErrorText(): (error: unknown) => string {
  const { t } = useTranslation("common");
  return useCallback((error: unknown) => errorText(error, t("errors.generic")), [t]);
}

/**
 * useTranslation for an app's own namespace, registering the app's strings on first use. A remote has no
 * start-up code of its own inside the shell, so its first render is where its strings join the page's i18n.
 */
export function useAppTranslation(namespace: string, translations: Translations) {
  const { i18n } = useKit();
  addTranslations(i18n, namespace, translations);
  return useTranslation(namespace);
}
