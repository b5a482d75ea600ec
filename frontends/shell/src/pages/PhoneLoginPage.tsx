import { Code } from "@connectrpc/connect";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  errorCode,
  isFeatureUnavailable,
  isPlausiblePhoneNumber,
  useAppTranslation,
  useErrorText,
  useKit,
} from "@tt/web-kit";
import { sendPhoneCode, toSessionUser, toStoredToken, verifyPhoneCode } from "@tt/web-kit/connect";
import { useState, type FormEvent } from "react";
import { Link, useNavigate } from "../router.tsx";
import { ACCOUNT_NAMESPACE, accountTranslations } from "./locales.ts";
import { FormError } from "./FormError.tsx";
import { TextField } from "./TextField.tsx";

/**
 * Spec 002 §2/§5: the phone-number login. A number is checked here for its shape; whether it is a real,
 * non-VoIP mobile number the server decides (400), and both cases show the spec's message. A server
 * whose user service does not implement the calls yet gets an honest "not available" — never a pretend
 * "code sent".
 */
export function PhoneLoginPage() {
  const { t } = useAppTranslation(ACCOUNT_NAMESPACE, accountTranslations);
  const toText = useErrorText();
  const kit = useKit();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [phone, setPhone] = useState("");
  const [code, setCode] = useState("");
  const [invalid, setInvalid] = useState(false);
  const send = useMutation({ mutationFn: (number: string) => sendPhoneCode(kit.transport, number) });
  const verify = useMutation({
    mutationFn: (input: { phone: string; code: string }) => verifyPhoneCode(kit.transport, input.phone, input.code),
    onSuccess: (res) => {
      if (!res.accessToken || !res.user) return;
      queryClient.clear();
      kit.session.signIn(toStoredToken(res.accessToken), toSessionUser(res.user));
      void navigate("/");
    },
  });

  const submitNumber = (event: FormEvent) => {
    event.preventDefault();
    if (!isPlausiblePhoneNumber(phone)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    send.mutate(phone);
  };

  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim()) verify.mutate({ phone, code: code.trim() });
  };

  const sendRejectedNumber = errorCode(send.error) === Code.InvalidArgument;
  let message: string | undefined;
  if (invalid || sendRejectedNumber) message = t("phone.invalid");
  else if (isFeatureUnavailable(send.error)) message = t("phone.unavailable");
  else if (send.isError) message = toText(send.error);

  if (send.isSuccess) {
    return (
      <section className="tt-card tt-auth" aria-labelledby="phone-title">
        <h1 id="phone-title" className="tt-page-title">
          {t("phone.title")}
        </h1>
        <p role="status">{t("phone.codeSent", { phone: send.data.phoneNumber || phone })}</p>
        <form onSubmit={submitCode} noValidate>
          <TextField
            id="phone-code"
            label={t("phone.codeLabel")}
            inputMode="numeric"
            autoComplete="one-time-code"
            required
            value={code}
            onChange={setCode}
          />
          <FormError
            message={
              isFeatureUnavailable(verify.error)
                ? t("phone.unavailable")
                : verify.isError
                  ? toText(verify.error)
                  : undefined
            }
          />
          <button type="submit" className="tt-button" disabled={verify.isPending}>
            {verify.isPending ? t("phone.verifying") : t("phone.verify")}
          </button>
        </form>
        <p>
          <button type="button" className="tt-button tt-button--quiet" onClick={() => send.reset()}>
            {t("phone.changeNumber")}
          </button>
        </p>
      </section>
    );
  }

  return (
    <section className="tt-card tt-auth" aria-labelledby="phone-title">
      <h1 id="phone-title" className="tt-page-title">
        {t("phone.title")}
      </h1>
      <p id="phone-intro">{t("phone.intro")}</p>
      <form onSubmit={submitNumber} noValidate>
        <TextField
          id="phone-number"
          label={t("phone.label")}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          required
          invalid={invalid || sendRejectedNumber}
          describedBy="phone-intro"
          hint={t("phone.hint")}
          value={phone}
          onChange={setPhone}
        />
        <FormError message={message} />
        <button type="submit" className="tt-button" disabled={send.isPending}>
          {send.isPending ? t("phone.submitting") : t("phone.submit")}
        </button>
      </form>
      <p>
        <Link to="/login">{t("phone.emailLink")}</Link>
      </p>
    </section>
  );
}
