import type { ReactNode } from "react";

export interface PageHeadProps {
  /** The page's title (an h1), or a section's (an h2) with `level={2}`. */
  title: ReactNode;
  level?: 1 | 2;
  titleId?: string;
  titleClassName?: string;
  /** A line under the title, muted. */
  intro?: ReactNode;
  introClassName?: string;
  className?: string;
  /** What the head offers (a button, a link, a count): beside the title, below it when the screen is narrow. */
  children?: ReactNode;
}

/** The head of a screen or a section: its title and intro on one side, its actions on the other. */
export function PageHead({
  title,
  level = 1,
  titleId,
  titleClassName,
  intro,
  introClassName,
  className,
  children,
}: PageHeadProps) {
  const Title = level === 1 ? "h1" : "h2";
  const titleClass = level === 1 ? "tt-page-title" : "tt-section-title";
  return (
    <header className={`tt-page-head ${className ?? ""}`.trim()}>
      <div>
        <Title id={titleId} className={`${titleClass} ${titleClassName ?? ""}`.trim()}>
          {title}
        </Title>
        {intro && <p className={`tt-muted tt-page-head__intro ${introClassName ?? ""}`.trim()}>{intro}</p>}
      </div>
      {children}
    </header>
  );
}
