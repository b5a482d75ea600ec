import { useAppTranslation } from "@tt/web-kit";
import { FormError, TextField, useServerErrors, useZodForm, z } from "@tt/web-kit/form";
import { Button, buttonClass } from "@tt/web-kit/ui";
import { Smartphone } from "lucide-react";
import { useMemo } from "react";
import { Link, useNavigate } from "../router.tsx";
import { useSignUp } from "../auth/use-auth.ts";
import { ACCOUNT_NAMESPACE, accountTranslations } from "./locales.ts";
import { greetAsNew } from "./welcome.ts";
import { AuthCard } from "./AuthCard.tsx";

export function SignUpPage() {
  const { t } = useAppTranslation(ACCOUNT_NAMESPACE, accountTranslations);
  const signUp = useSignUp();
  const navigate = useNavigate();
  // Spec 000: sign-up needs an e-mail and a password; the server's rules decide the rest (and say so on the field).
  const schema = useMemo(
    () =>
      z.object({
        email: z
          .string()
          .trim()
          .min(1, t("validation.emailRequired"))
          .pipe(z.email(t("validation.emailInvalid"))),
        password: z.string().min(1, t("validation.passwordRequired")),
        nickname: z.string().trim(),
      }),
    [t],
  );
  const form = useZodForm(schema, { defaultValues: { email: "", password: "", nickname: "" } });
  const { formError, fail, clear } = useServerErrors(form);
  const submit = form.handleSubmit((values) => {
    clear();
    signUp.mutate(values, {
      // A new account is greeted as new on the home page, never "welcome back".
      onSuccess: (res) => {
        greetAsNew(res.user?.uuid);
        void navigate("/");
      },
      onError: fail,
    });
  });

  return (
    <AuthCard
      id="signup-title"
      title={t("signUp.title")}
      subtitle={t("signUp.subtitle")}
      footer={
        <p>
          {t("signUp.haveAccount")} <Link to="/login">{t("signUp.loginLink")}</Link>
        </p>
      }
    >
      <form onSubmit={(event) => void submit(event)} noValidate className="tt-auth__form">
        <TextField
          form={form}
          name="email"
          id="signup-email"
          label={t("signUp.email")}
          type="email"
          autoComplete="email"
        />
        <TextField
          form={form}
          name="password"
          id="signup-password"
          label={t("signUp.password")}
          type="password"
          autoComplete="new-password"
        />
        <TextField
          form={form}
          name="nickname"
          id="signup-nickname"
          label={t("signUp.nickname")}
          hint={t("signUp.nicknameHint")}
          autoComplete="nickname"
        />
        <FormError message={formError} />
        <Button type="submit" busy={signUp.isPending} className="tt-auth__submit">
          {t("signUp.submit")}
        </Button>
      </form>
      <div className="tt-auth__or">
        <span>{t("login.or")}</span>
      </div>
      <Link className={buttonClass("secondary", "md", "tt-auth__alt")} to="/login/phone">
        <Smartphone aria-hidden="true" />
        {t("signUp.phoneLink")}
      </Link>
    </AuthCard>
  );
}
