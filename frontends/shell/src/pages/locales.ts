// The strings of the sign-in screens (log in, sign up, phone), in the chunks of those screens rather than with the
// first screen's (issue 24).
import type { Translations } from "@tt/web-kit";

const en = {
  login: {
    title: "Log in",
    subtitle: "Welcome back to the floor.",
    or: "or",
    email: "E-mail",
    password: "Password",
    submit: "Log in",
    submitting: "Logging in…",
    noAccount: "No account yet?",
    signUpLink: "Sign up",
    phoneLink: "Use your phone number instead",
  },
  signUp: {
    title: "Sign up",
    subtitle: "A free account keeps your crates and lets you DJ and chat.",
    email: "E-mail",
    password: "Password",
    nickname: "Nickname",
    nicknameHint: "Shown in rooms and chat. Leave empty to use the part of your e-mail before the @.",
    submit: "Create account",
    submitting: "Creating account…",
    haveAccount: "Already have an account?",
    loginLink: "Log in",
    phoneLink: "Sign up with your phone number",
  },
  phone: {
    title: "Continue with your phone",
    intro: "Enter your phone number to create a new account. We'll text a code to verify.",
    label: "Phone number",
    hint: "Include the country code, for example +1 415 555 0100.",
    submit: "Text me a code",
    submitting: "Sending…",
    invalid: "Phone number is invalid. Only real, non-VoIP mobile numbers are allowed.",
    unavailable: "Signing in with a phone number is not available on this server yet. Please use your e-mail.",
    emailLink: "Use your e-mail instead",
    codeSent: "We texted a code to {{phone}}.",
    codeLabel: "Code",
    codeRequired: "Enter the code we texted you.",
    verify: "Verify",
    verifying: "Verifying…",
    changeNumber: "Use another number",
  },
  validation: {
    emailRequired: "Enter your e-mail address.",
    emailInvalid: "Enter an e-mail address like name@example.com.",
    passwordRequired: "Enter your password.",
  },
};

const es: typeof en = {
  login: {
    title: "Iniciar sesión",
    subtitle: "Te damos de nuevo la bienvenida a la pista.",
    or: "o",
    email: "Correo electrónico",
    password: "Contraseña",
    submit: "Iniciar sesión",
    submitting: "Iniciando sesión…",
    noAccount: "¿Aún no tienes cuenta?",
    signUpLink: "Regístrate",
    phoneLink: "Usar tu número de teléfono",
  },
  signUp: {
    title: "Registrarse",
    subtitle: "Una cuenta gratuita guarda tus cajas y te deja pinchar y chatear.",
    email: "Correo electrónico",
    password: "Contraseña",
    nickname: "Apodo",
    nicknameHint: "Se muestra en las salas y el chat. Si lo dejas vacío se usa la parte de tu correo antes de la @.",
    submit: "Crear cuenta",
    submitting: "Creando cuenta…",
    haveAccount: "¿Ya tienes cuenta?",
    loginLink: "Inicia sesión",
    phoneLink: "Registrarte con tu número de teléfono",
  },
  phone: {
    title: "Continúa con tu teléfono",
    intro:
      "Introduce tu número de teléfono para crear una cuenta nueva. Te enviaremos un código por SMS para verificarlo.",
    label: "Número de teléfono",
    hint: "Incluye el prefijo del país, por ejemplo +34 612 345 678.",
    submit: "Enviarme un código",
    submitting: "Enviando…",
    invalid: "El número de teléfono no es válido. Solo se permiten números móviles reales que no sean VoIP.",
    unavailable:
      "Iniciar sesión con un número de teléfono aún no está disponible en este servidor. Usa tu correo electrónico.",
    emailLink: "Usar tu correo electrónico",
    codeSent: "Te hemos enviado un código por SMS al {{phone}}.",
    codeLabel: "Código",
    codeRequired: "Introduce el código que te enviamos.",
    verify: "Verificar",
    verifying: "Verificando…",
    changeNumber: "Usar otro número",
  },
  validation: {
    emailRequired: "Introduce tu correo electrónico.",
    emailInvalid: "Introduce un correo como nombre@ejemplo.com.",
    passwordRequired: "Introduce tu contraseña.",
  },
};

export const ACCOUNT_NAMESPACE = "shellAccount";
export const accountTranslations: Translations = { en, es };
