import { Component, type ErrorInfo, type ReactNode } from "react";
import { useAppTranslation } from "./KitProvider.tsx";

export interface RemoteFallbackProps {
  /** The name shown to the user, e.g. "Rooms". */
  title: string;
  onRetry: () => void;
}

export function RemoteFallback({ title, onRetry }: RemoteFallbackProps) {
  const { t } = useAppTranslation("common");
  return (
    <section className="tt-remote-fallback" role="alert" aria-live="assertive">
      <h2>{t("remote.unavailableTitle", { name: title })}</h2>
      <p>{t("remote.unavailableBody")}</p>
      <button type="button" className="tt-button" onClick={onRetry}>
        {t("remote.retry")}
      </button>
    </section>
  );
}

export interface RemoteErrorBoundaryProps {
  title: string;
  children: ReactNode;
  /** Called after the user asks to retry, before the children render again (e.g. to reload the remote). */
  onRetry?: () => void;
  /** Told about every error caught, for logging. */
  onError?: (error: unknown, info: ErrorInfo) => void;
}

interface State {
  error: unknown;
}

/**
 * The last of the three layers around a remote (retry, errorLoadRemote, this): whatever a remote throws
 * while loading or rendering, the page around it stays up and the user gets a way to try again.
 */
export class RemoteErrorBoundary extends Component<RemoteErrorBoundaryProps, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error ?? new Error("Remote failed") };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    this.props.onError?.(error, info);
  }

  private readonly retry = () => {
    this.props.onRetry?.();
    this.setState({ error: null });
  };

  override render(): ReactNode {
    if (this.state.error) return <RemoteFallback title={this.props.title} onRetry={this.retry} />;
    return this.props.children;
  }
}
