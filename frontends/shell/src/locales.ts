import type { Translations } from "@tt/web-kit";

const en = {
  brand: "Turntable",
  skipToContent: "Skip to content",
  nav: {
    label: "Main",
    home: "Home",
    room: "Rooms",
    crates: "Crates",
    shop: "Shop",
    admin: "Admin",
  },
  header: {
    signedInAs: "Signed in as {{name}}",
    guest: "Browsing as a guest",
    login: "Log in",
    signUp: "Sign up",
    logout: "Log out",
    loggingOut: "Logging out…",
    language: "Language",
  },
  home: {
    title: "Listen together",
    intro: "Join live rooms, take a DJ seat and play songs for everyone in the room.",
    guestHint: "You are browsing as a guest. Sign up to keep crates, DJ and chat.",
    welcome: "Welcome back, {{name}}.",
    browse: "Browse rooms",
  },
  login: {
    title: "Log in",
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
  },
  validation: {
    emailRequired: "Enter your e-mail address.",
    passwordRequired: "Enter your password.",
  },
  remotes: {
    configError: "The list of app sections could not be loaded.",
    unknown: "This section is not part of this installation.",
  },
  notFound: {
    title: "Page not found",
    back: "Go to the home page",
  },
};

const es: typeof en = {
  brand: "Turntable",
  skipToContent: "Saltar al contenido",
  nav: {
    label: "Principal",
    home: "Inicio",
    room: "Salas",
    crates: "Cajas",
    shop: "Tienda",
    admin: "Administración",
  },
  header: {
    signedInAs: "Sesión iniciada como {{name}}",
    guest: "Navegando como invitado",
    login: "Iniciar sesión",
    signUp: "Registrarse",
    logout: "Cerrar sesión",
    loggingOut: "Cerrando sesión…",
    language: "Idioma",
  },
  home: {
    title: "Escuchad juntos",
    intro: "Únete a salas en directo, ocupa un puesto de DJ y pon canciones para toda la sala.",
    guestHint: "Estás navegando como invitado. Regístrate para guardar cajas, pinchar y chatear.",
    welcome: "Hola de nuevo, {{name}}.",
    browse: "Ver salas",
  },
  login: {
    title: "Iniciar sesión",
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
  },
  validation: {
    emailRequired: "Introduce tu correo electrónico.",
    passwordRequired: "Introduce tu contraseña.",
  },
  remotes: {
    configError: "No se pudo cargar la lista de secciones de la aplicación.",
    unknown: "Esta sección no forma parte de esta instalación.",
  },
  notFound: {
    title: "Página no encontrada",
    back: "Ir a la página de inicio",
  },
};

export const SHELL_NAMESPACE = "shell";
export const shellTranslations: Translations = { en, es };
