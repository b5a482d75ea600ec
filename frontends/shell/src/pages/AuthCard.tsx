import { Disc3 } from "lucide-react";
import type { ReactNode } from "react";

/** The frame of the sign-in screens: the brand's mark, a title and a line under it, the form, the other ways in. */
export function AuthCard({
  id,
  title,
  subtitle,
  children,
  footer,
}: {
  id: string;
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <section className="tt-auth" aria-labelledby={id}>
      <div className="tt-card tt-auth__card">
        <span className="tt-icon-tile tt-auth__mark" aria-hidden="true">
          <Disc3 />
        </span>
        <h1 id={id} className="tt-auth__title">
          {title}
        </h1>
        {subtitle && <p className="tt-auth__subtitle">{subtitle}</p>}
        {children}
      </div>
      {footer && <div className="tt-auth__footer">{footer}</div>}
    </section>
  );
}
