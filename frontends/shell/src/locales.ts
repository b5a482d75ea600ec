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
    people: "Friends and fans",
    avatar: "Avatar: {{name}}",
    accountMenu: "Your account",
    accountMenuFor: "Account menu for {{name}}",
    profile: "Your profile",
    loggedOut: "You are logged out. See you on the floor!",
  },
  home: {
    title: "Listen together",
    intro: "Join live rooms, take a DJ seat and play songs for everyone in the room.",
    guestHint: "You are browsing as a guest. Sign up to keep crates, DJ and chat.",
    welcome: "Welcome back, {{name}}.",
    browse: "Browse rooms",
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
    people: "Amigos y fans",
    avatar: "Avatar: {{name}}",
    accountMenu: "Tu cuenta",
    accountMenuFor: "Menú de la cuenta de {{name}}",
    profile: "Tu perfil",
    loggedOut: "Has cerrado la sesión. ¡Nos vemos en la pista!",
  },
  home: {
    title: "Escuchad juntos",
    intro: "Únete a salas en directo, ocupa un puesto de DJ y pon canciones para toda la sala.",
    guestHint: "Estás navegando como invitado. Regístrate para guardar cajas, pinchar y chatear.",
    welcome: "Hola de nuevo, {{name}}.",
    browse: "Ver salas",
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
