import { useAppTranslation, useErrorText } from "@tt/web-kit";
import { useState, type FormEvent } from "react";
import { Link, useNavigate } from "../router.tsx";
import { useSignUp } from "../auth/use-auth.ts";
import { ACCOUNT_NAMESPACE, accountTranslations } from "./locales.ts";
import { FormError } from "./FormError.tsx";
import { TextField } from "./TextField.tsx";

export function SignUpPage() {
  const { t } = useAppTranslation(ACCOUNT_NAMESPACE, accountTranslations);
  const toText = useErrorText();
  const signUp = useSignUp();
  const navigate = useNavigate();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [nickname, setNickname] = useState("");
  const [invalid, setInvalid] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Spec 000: sign-up needs an e-mail and a password; the server's rules decide the rest.
    if (!email.trim()) return setInvalid(t("validation.emailRequired"));
    if (!password) return setInvalid(t("validation.passwordRequired"));
    setInvalid(undefined);
    signUp.mutate(
      { email: email.trim(), password, nickname: nickname.trim() },
      { onSuccess: () => void navigate("/") },
    );
  };

  return (
    <section className="tt-card tt-auth" aria-labelledby="signup-title">
      <h1 id="signup-title" className="tt-page-title">
        {t("signUp.title")}
      </h1>
      <form onSubmit={submit} noValidate>
        <TextField
          id="signup-email"
          label={t("signUp.email")}
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={setEmail}
        />
        <TextField
          id="signup-password"
          label={t("signUp.password")}
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={setPassword}
        />
        <TextField
          id="signup-nickname"
          label={t("signUp.nickname")}
          autoComplete="nickname"
          hint={t("signUp.nicknameHint")}
          value={nickname}
          onChange={setNickname}
        />
        <FormError message={invalid ?? (signUp.isError ? toText(signUp.error) : undefined)} />
        <button type="submit" className="tt-button" disabled={signUp.isPending}>
          {signUp.isPending ? t("signUp.submitting") : t("signUp.submit")}
        </button>
      </form>
      <p>
        {t("signUp.haveAccount")} <Link to="/login">{t("signUp.loginLink")}</Link>
      </p>
      <p>
        <Link to="/login/phone">{t("signUp.phoneLink")}</Link>
      </p>
    </section>
  );
}
