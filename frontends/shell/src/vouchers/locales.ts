// The voucher screen's strings (issue 26), in that screen's chunk.
import type { Translations } from "@tt/web-kit";

const en = {
  title: "Redeem a voucher",
  intro: "A voucher's code adds a permission or a badge to your account, for example the right to upload music.",
  code: "Voucher code",
  codeHint: "As you received it, for example ABCD-2345; capitals or small letters, either works.",
  codeRequired: "Enter the voucher's code.",
  submit: "Redeem",
  redeemed: "Voucher {{code}} redeemed",
  grant: {
    uploadMusic: "You can now upload music.",
    promoteRoom: "You can now promote rooms.",
    capability: "You now have the “{{name}}” permission.",
    badge: "Your profile now shows the {{name}} badge.",
    nothing: "It carried no permission or badge.",
  },
  upload: "Upload a song",
  another: "Redeem another voucher",
  signIn: "Log in to redeem a voucher",
  signInBody: "What a voucher grants is kept with your account, so sign in or create a free account first.",
  logIn: "Log in",
};

const es: typeof en = {
  title: "Canjear un vale",
  intro: "El código de un vale añade un permiso o una insignia a tu cuenta, por ejemplo el de subir música.",
  code: "Código del vale",
  codeHint: "Tal como lo recibiste, por ejemplo ABCD-2345; da igual en mayúsculas o minúsculas.",
  codeRequired: "Escribe el código del vale.",
  submit: "Canjear",
  redeemed: "Vale {{code}} canjeado",
  grant: {
    uploadMusic: "Ya puedes subir música.",
    promoteRoom: "Ya puedes promocionar salas.",
    capability: "Ahora tienes el permiso «{{name}}».",
    badge: "Tu perfil muestra ahora la insignia {{name}}.",
    nothing: "No incluía ningún permiso ni insignia.",
  },
  upload: "Subir una canción",
  another: "Canjear otro vale",
  signIn: "Inicia sesión para canjear un vale",
  signInBody: "Lo que da un vale se guarda con tu cuenta, así que primero inicia sesión o crea una cuenta gratis.",
  logIn: "Iniciar sesión",
};

export const VOUCHER_NAMESPACE = "shellVoucher";
export const voucherTranslations: Translations = { en, es };
