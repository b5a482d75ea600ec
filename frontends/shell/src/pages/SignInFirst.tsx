import { buttonClass, EmptyState } from "@tt/web-kit/ui";
import { LogIn } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "../router.tsx";

/** A page a guest cannot use yet: what it is for and a way to the login page (a next step, never a bare refusal). */
export function SignInFirst({
  icon,
  title,
  logIn,
  children,
}: {
  icon: ReactNode;
  title: string;
  /** The login button's words. */
  logIn: string;
  children: ReactNode;
}) {
  return (
    <EmptyState
      icon={icon}
      title={title}
      action={
        <Link className={buttonClass()} to="/login">
          <LogIn aria-hidden="true" />
          {logIn}
        </Link>
      }
    >
      {children}
    </EmptyState>
  );
}
