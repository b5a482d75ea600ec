import { CircleAlert } from "lucide-react";
import type { CSSProperties, HTMLAttributes, ReactNode } from "react";

/** A small spinning ring in the current colour; decorative (the control around it says what is busy). */
export function Spinner({ className }: { className?: string }) {
  return <span className={`tt-spinner ${className ?? ""}`.trim()} aria-hidden="true" />;
}

/** "Loading …" with a spinner, announced politely. */
export function Loading({ label }: { label: string }) {
  return (
    <p className="tt-loading" role="status">
      <Spinner />
      {label}
    </p>
  );
}

/** A placeholder block in the shape of what is loading. */
export function Skeleton({
  width = "100%",
  height = "1rem",
  radius,
  className,
}: {
  width?: CSSProperties["width"];
  height?: CSSProperties["height"];
  radius?: CSSProperties["borderRadius"];
  className?: string;
}) {
  return (
    <span
      className={`tt-skeleton ${className ?? ""}`.trim()}
      style={{ width, height, borderRadius: radius }}
      aria-hidden="true"
    />
  );
}

export type BadgeTone = "neutral" | "accent" | "success" | "warning" | "danger" | "live";

export function Badge({
  tone = "neutral",
  icon,
  children,
  className,
  ...rest
}: HTMLAttributes<HTMLSpanElement> & { tone?: BadgeTone; icon?: ReactNode }) {
  return (
    <span className={`tt-badge ${tone === "neutral" ? "" : `tt-badge--${tone}`} ${className ?? ""}`.trim()} {...rest}>
      {icon}
      {children}
    </span>
  );
}

export function Card({
  interactive = false,
  className,
  children,
  ...rest
}: HTMLAttributes<HTMLElement> & { interactive?: boolean }) {
  return (
    <section className={`tt-card ${interactive ? "tt-card--interactive" : ""} ${className ?? ""}`.trim()} {...rest}>
      {children}
    </section>
  );
}

/**
 * Nothing to show yet, and what to do about it: an icon, a title, a sentence and the next step (a button or a
 * link). Every empty list uses it, so no screen ends in a blank.
 */
export function EmptyState({
  icon,
  title,
  children,
  action,
  headingLevel = 2,
}: {
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  headingLevel?: 2 | 3 | 4;
}) {
  const Heading = `h${headingLevel}` as const;
  return (
    <div className="tt-empty">
      {icon && (
        <span className="tt-icon-tile tt-icon-tile--round" aria-hidden="true">
          {icon}
        </span>
      )}
      <Heading className="tt-empty__title">{title}</Heading>
      {children && <p className="tt-empty__body">{children}</p>}
      {action && <div className="tt-empty__action">{action}</div>}
    </div>
  );
}

/** An error the person should read (a server's message through errorText), announced as an alert. */
export function ErrorMessage({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <p className={`tt-error ${className ?? ""}`.trim()} role="alert">
      <CircleAlert aria-hidden="true" size={18} style={{ flex: "none", marginTop: "0.15rem" }} />
      <span>{children}</span>
    </p>
  );
}
