import type { en } from "./en.ts";

export const es: typeof en = {
  loading: "Cargando…",
  errors: {
    generic: "Algo salió mal, por favor inténtalo de nuevo.",
  },
  remote: {
    loading: "Cargando {{name}}…",
    unavailableTitle: "{{name}} no está disponible en este momento",
    unavailableBody: "Esta parte de la aplicación no se pudo cargar. El resto de la aplicación sigue funcionando.",
    retry: "Reintentar",
  },
};
