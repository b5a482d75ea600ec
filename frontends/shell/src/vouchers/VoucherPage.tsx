import { useMutation, useQueryClient } from "@tanstack/react-query";
import { AccountService } from "@tt/proto/tt/user/v1/account_service_pb";
import type { Voucher } from "@tt/proto/tt/user/v1/voucher_pb";
import { useAppTranslation, useSession } from "@tt/web-kit";
import { useClient } from "@tt/web-kit/connect";
import { FormError, TextField, useServerErrors, useZodForm, z } from "@tt/web-kit/form";
import { Button, buttonClass, useNames } from "@tt/web-kit/ui";
import { Ticket, Upload } from "lucide-react";
import { useMemo, useState } from "react";
import { AuthCard } from "../pages/AuthCard.tsx";
import { SignInFirst } from "../pages/SignInFirst.tsx";
import { Link } from "../router.tsx";
import { VOUCHER_NAMESPACE, voucherTranslations } from "./locales.ts";

// PATCH /vouchers/redeem (spec 000 §7): a signed-in user types a voucher's code and is told in words what it granted,
// or the server's message.

/** Sentences for what a redeemed voucher granted: one per capability and badge. */
function useGrantSentences(voucher: Voucher): string[] {
  const { t } = useAppTranslation(VOUCHER_NAMESPACE, voucherTranslations);
  const name = useNames();
  const sentences = [
    ...voucher.capabilities.map((capability) =>
      t(`grant.${capability}`, {
        defaultValue: t("grant.capability", { name: name("capability", capability) }),
      }),
    ),
    ...voucher.badges.map((badge) => t("grant.badge", { name: name("badge", badge) })),
  ];
  return sentences.length > 0 ? sentences : [t("grant.nothing")];
}

function Redeemed({ voucher, onAnother }: { voucher: Voucher; onAnother: () => void }) {
  const { t } = useAppTranslation(VOUCHER_NAMESPACE, voucherTranslations);
  const sentences = useGrantSentences(voucher);
  return (
    <div role="status" className="tt-voucher__redeemed">
      <h2 className="tt-voucher__redeemed-title">{t("redeemed", { code: voucher.code })}</h2>
      <ul className="tt-voucher__grants">
        {sentences.map((sentence) => (
          <li key={sentence}>{sentence}</li>
        ))}
      </ul>
      <div className="tt-voucher__actions">
        {voucher.capabilities.includes("uploadMusic") && (
          <Link className={buttonClass()} to="/crates/uploads">
            <Upload aria-hidden="true" />
            {t("upload")}
          </Link>
        )}
        <Button variant="secondary" onClick={onAnother}>
          {t("another")}
        </Button>
      </div>
    </div>
  );
}

function RedeemForm({ onRedeemed }: { onRedeemed: (voucher: Voucher) => void }) {
  const { t } = useAppTranslation(VOUCHER_NAMESPACE, voucherTranslations);
  const accounts = useClient(AccountService);
  const queryClient = useQueryClient();
  const schema = useMemo(() => z.object({ code: z.string().trim().min(1, t("codeRequired")) }), [t]);
  const form = useZodForm(schema, { defaultValues: { code: "" } });
  const { formError, fail, clear } = useServerErrors(form);
  const redeem = useMutation({
    mutationFn: (code: string) => accounts.redeemVoucher({ code }),
    onSuccess: (res) => {
      // What the account may do changed (e.g. the upload page's permission): nothing cached about it still holds.
      void queryClient.invalidateQueries();
      if (res.voucher) onRedeemed(res.voucher);
    },
    onError: fail,
  });
  const submit = form.handleSubmit(({ code }) => {
    clear();
    redeem.mutate(code);
  });
  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="tt-auth__form">
      <TextField
        form={form}
        name="code"
        id="voucher-code"
        label={t("code")}
        hint={t("codeHint")}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
      />
      <FormError message={formError} />
      <Button type="submit" busy={redeem.isPending} icon={<Ticket aria-hidden="true" />} className="tt-auth__submit">
        {t("submit")}
      </Button>
    </form>
  );
}

export function VoucherPage() {
  const { t } = useAppTranslation(VOUCHER_NAMESPACE, voucherTranslations);
  const { signedIn, user } = useSession();
  const [redeemed, setRedeemed] = useState<Voucher | null>(null);
  if (!signedIn || !user) {
    return (
      <AuthCard id="voucher-title" title={t("title")}>
        <SignInFirst icon={<Ticket />} title={t("signIn")} logIn={t("logIn")}>
          {t("signInBody")}
        </SignInFirst>
      </AuthCard>
    );
  }
  return (
    <AuthCard id="voucher-title" title={t("title")} subtitle={t("intro")}>
      {redeemed ? (
        <Redeemed voucher={redeemed} onAnother={() => setRedeemed(null)} />
      ) : (
        <RedeemForm onRedeemed={setRedeemed} />
      )}
    </AuthCard>
  );
}
