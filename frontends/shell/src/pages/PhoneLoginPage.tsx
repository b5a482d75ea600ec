import { FeatureUnavailableError, isPlausiblePhoneNumber, useAppTranslation, useErrorText, useKit } from "@tt/web-kit";
import { sendPhoneCode } from "@tt/web-kit/connect";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { SHELL_NAMESPACE, shellTranslations } from "../locales.ts";
import { FormError } from "./FormError.tsx";

/**
 * Spec 002 §2/§5: the phone-number login. The send-code call does not exist on the server yet, so a
 * valid number ends in an honest "not available yet" rather than a pretend "code sent".
 */
export function PhoneLoginPage() {
  const { t } = useAppTranslation(SHELL_NAMESPACE, shellTranslations);
  const toText = useErrorText();
  const { transport } = useKit();
  const [phone, setPhone] = useState("");
  const [invalid, setInvalid] = useState(false);
  const send = useMutation({ mutationFn: (number: string) => sendPhoneCode(transport, number) });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!isPlausiblePhoneNumber(phone)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    send.mutate(phone);
  };

  let message: string | undefined;
  if (invalid) message = t("phone.invalid");
  else if (send.error instanceof FeatureUnavailableError) message = t("phone.unavailable");
  else if (send.isError) message = toText(send.error);

  return (
    <section className="tt-card tt-auth" aria-labelledby="phone-title">
      <h1 id="phone-title" className="tt-page-title">
        {t("phone.title")}
      </h1>
      <p id="phone-intro">{t("phone.intro")}</p>
      <form onSubmit={submit} noValidate>
        <div className="tt-field">
          <label htmlFor="phone-number">{t("phone.label")}</label>
          <input
            id="phone-number"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            required
            aria-invalid={invalid}
            aria-describedby="phone-intro phone-hint"
            value={phone}
            onChange={(event) => setPhone(event.target.value)}
          />
          <span id="phone-hint" className="tt-field-hint">
            {t("phone.hint")}
          </span>
        </div>
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
