import { useAppTranslation, useErrorText } from "@tt/web-kit";
import { useState, type FormEvent } from "react";
import { Link, useNavigate } from "../router.tsx";
import { useLogin } from "../auth/use-auth.ts";
import { ACCOUNT_NAMESPACE, accountTranslations } from "./locales.ts";
import { FormError } from "./FormError.tsx";
import { TextField } from "./TextField.tsx";

export function LoginPage() {
  const { t } = useAppTranslation(ACCOUNT_NAMESPACE, accountTranslations);
  const toText = useErrorText();
  const login = useLogin();
  const navigate = useNavigate();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [invalid, setInvalid] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) return setInvalid(t("validation.emailRequired"));
    if (!password) return setInvalid(t("validation.passwordRequired"));
    setInvalid(undefined);
    login.mutate({ email: email.trim(), password }, { onSuccess: () => void navigate("/") });
  };

  return (
    <section className="tt-card tt-auth" aria-labelledby="login-title">
      <h1 id="login-title" className="tt-page-title">
        {t("login.title")}
      </h1>
      <form onSubmit={submit} noValidate>
        <TextField
          id="login-email"
          label={t("login.email")}
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={setEmail}
        />
        <TextField
          id="login-password"
          label={t("login.password")}
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={setPassword}
        />
        <FormError message={invalid ?? (login.isError ? toText(login.error) : undefined)} />
        <button type="submit" className="tt-button" disabled={login.isPending}>
          {login.isPending ? t("login.submitting") : t("login.submit")}
        </button>
      </form>
      <p>
        {t("login.noAccount")} <Link to="/signup">{t("login.signUpLink")}</Link>
      </p>
      <p>
        <Link to="/login/phone">{t("login.phoneLink")}</Link>
      </p>
    </section>
  );
}
