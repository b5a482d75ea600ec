import { Code } from "@connectrpc/connect";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorCode, isFeatureUnavailable, isPlausiblePhoneNumber, useAppTranslation, useKit } from "@tt/web-kit";
import { sendPhoneCode, toSessionUser, toStoredToken, verifyPhoneCode } from "@tt/web-kit/connect";
import { FormError, TextField, useServerErrors, useZodForm, z } from "@tt/web-kit/form";
import { Button, buttonClass } from "@tt/web-kit/ui";
import { Mail, MessageSquareText } from "lucide-react";
import { useMemo, useState } from "react";
import { Link, useNavigate } from "../router.tsx";
import { ACCOUNT_NAMESPACE, accountTranslations } from "./locales.ts";
import { greetAsNew } from "./welcome.ts";
import { AuthCard } from "./AuthCard.tsx";

/**
 * Spec 002 §2/§5: the phone-number login. A number is checked here for its shape; whether it is a real,
 * non-VoIP mobile number the server decides (400), and both cases show the spec's message on the field. A server
 * whose user service does not implement the calls yet gets an honest "not available" — never a pretend
 * "code sent".
 */
export function PhoneLoginPage() {
  const { t } = useAppTranslation(ACCOUNT_NAMESPACE, accountTranslations);
  const kit = useKit();
  const navigate = useNavigate();
  const numberSchema = useMemo(
    () => z.object({ phone: z.string().trim().refine(isPlausiblePhoneNumber, t("phone.invalid")) }),
    [t],
  );
  const codeSchema = useMemo(() => z.object({ code: z.string().trim().min(1, t("phone.codeRequired")) }), [t]);
  const numberForm = useZodForm(numberSchema, { defaultValues: { phone: "" } });
  const codeForm = useZodForm(codeSchema, { defaultValues: { code: "" } });
  const numberErrors = useServerErrors(numberForm);
  const codeErrors = useServerErrors(codeForm);
  // "Not available on this server" is the shell's own sentence, not a server's message.
  const [unavailable, setUnavailable] = useState(false);
  const queryClient = useQueryClient();
  const send = useMutation({ mutationFn: (number: string) => sendPhoneCode(kit.transport, number) });
  const verify = useMutation({
    mutationFn: (input: { phone: string; code: string }) => verifyPhoneCode(kit.transport, input.phone, input.code),
    onSuccess: (res) => {
      if (!res.accessToken || !res.user) return;
      queryClient.clear();
      kit.session.signIn(toStoredToken(res.accessToken), toSessionUser(res.user));
      // A number that made a new account is greeted as new on the home page.
      if (res.created) greetAsNew(res.user.uuid);
      void navigate("/");
    },
  });

  const submitNumber = numberForm.handleSubmit(({ phone }) => {
    numberErrors.clear();
    setUnavailable(false);
    send.mutate(phone, {
      onError: (error) => {
        // The server found the number is not a real mobile one: the spec's message, on the field.
        if (errorCode(error) === Code.InvalidArgument) {
          numberForm.setError("phone", { type: "server", message: t("phone.invalid") }, { shouldFocus: true });
        } else if (isFeatureUnavailable(error)) {
          setUnavailable(true);
        } else {
          numberErrors.fail(error);
        }
      },
    });
  });

  const submitCode = codeForm.handleSubmit(({ code }) => {
    codeErrors.clear();
    setUnavailable(false);
    verify.mutate(
      { phone: numberForm.getValues("phone").trim(), code },
      { onError: (error) => (isFeatureUnavailable(error) ? setUnavailable(true) : codeErrors.fail(error)) },
    );
  });
  const unavailableText = unavailable ? t("phone.unavailable") : undefined;

  const emailFooter = (
    <Link className={buttonClass("ghost")} to="/login">
      <Mail aria-hidden="true" />
      {t("phone.emailLink")}
    </Link>
  );

  if (send.isSuccess) {
    return (
      <AuthCard id="phone-title" title={t("phone.title")} footer={emailFooter}>
        <p className="tt-auth__notice" role="status">
          <MessageSquareText aria-hidden="true" />
          <span>{t("phone.codeSent", { phone: send.data.phoneNumber || numberForm.getValues("phone") })}</span>
        </p>
        <form onSubmit={(event) => void submitCode(event)} noValidate className="tt-auth__form">
          <TextField
            form={codeForm}
            name="code"
            id="phone-code"
            label={t("phone.codeLabel")}
            inputMode="numeric"
            autoComplete="one-time-code"
            className="tt-auth__code"
          />
          <FormError message={unavailableText ?? codeErrors.formError} />
          <Button type="submit" busy={verify.isPending} className="tt-auth__submit">
            {t("phone.verify")}
          </Button>
        </form>
        <Button
          variant="ghost"
          className="tt-auth__alt"
          onClick={() => {
            send.reset();
            codeForm.reset();
            codeErrors.clear();
          }}
        >
          {t("phone.changeNumber")}
        </Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard id="phone-title" title={t("phone.title")} subtitle={t("phone.intro")} footer={emailFooter}>
      <form onSubmit={(event) => void submitNumber(event)} noValidate className="tt-auth__form">
        <TextField
          form={numberForm}
          name="phone"
          id="phone-number"
          label={t("phone.label")}
          hint={t("phone.hint")}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
        />
        <FormError message={unavailableText ?? numberErrors.formError} />
        <Button type="submit" busy={send.isPending} className="tt-auth__submit">
          {t("phone.submit")}
        </Button>
      </form>
    </AuthCard>
  );
}
