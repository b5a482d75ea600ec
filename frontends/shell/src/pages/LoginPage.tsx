import { useAppTranslation } from "@tt/web-kit";
import { FormError, TextField, useServerErrors, useZodForm, z } from "@tt/web-kit/form";
import { Button, buttonClass } from "@tt/web-kit/ui";
import { Smartphone } from "lucide-react";
import { useMemo } from "react";
import { Link, useNavigate } from "../router.tsx";
import { useLogin } from "../auth/use-auth.ts";
import { ACCOUNT_NAMESPACE, accountTranslations } from "./locales.ts";
import { AuthCard } from "./AuthCard.tsx";

export function LoginPage() {
  const { t } = useAppTranslation(ACCOUNT_NAMESPACE, accountTranslations);
  const login = useLogin();
  const navigate = useNavigate();
  const schema = useMemo(
    () =>
      z.object({
        email: z
          .string()
          .trim()
          .min(1, t("validation.emailRequired"))
          .pipe(z.email(t("validation.emailInvalid"))),
        password: z.string().min(1, t("validation.passwordRequired")),
      }),
    [t],
  );
  const form = useZodForm(schema, { defaultValues: { email: "", password: "" } });
  const { formError, fail, clear } = useServerErrors(form);
  const submit = form.handleSubmit((values) => {
    clear();
    login.mutate(values, { onSuccess: () => void navigate("/"), onError: fail });
  });

  return (
    <AuthCard
      id="login-title"
      title={t("login.title")}
      subtitle={t("login.subtitle")}
      footer={
        <>
          <p>
            {t("login.noAccount")} <Link to="/signup">{t("login.signUpLink")}</Link>
          </p>
        </>
      }
    >
      <form onSubmit={(event) => void submit(event)} noValidate className="tt-auth__form">
        <TextField
          form={form}
          name="email"
          id="login-email"
          label={t("login.email")}
          type="email"
          autoComplete="email"
        />
        <TextField
          form={form}
          name="password"
          id="login-password"
          label={t("login.password")}
          type="password"
          autoComplete="current-password"
        />
        <FormError message={formError} />
        <Button type="submit" busy={login.isPending} className="tt-auth__submit">
          {t("login.submit")}
        </Button>
      </form>
      <div className="tt-auth__or">
        <span>{t("login.or")}</span>
      </div>
      <Link className={buttonClass("secondary", "md", "tt-auth__alt")} to="/login/phone">
        <Smartphone aria-hidden="true" />
        {t("login.phoneLink")}
      </Link>
    </AuthCard>
  );
}
