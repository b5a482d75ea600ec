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
  ui: {
    followCounts: { label: "Fans y seguidos", fans: "Fans", following: "Siguiendo" },
    close: "Cerrar",
    cancel: "Cancelar",
    dismiss: "Descartar",
    notifications: "Notificaciones",
    choose: "Elige…",
    theme: {
      label: "Tema",
      dark: "Oscuro",
      light: "Claro",
      system: "Igual que el sistema",
      toDark: "Cambiar al tema oscuro",
      toLight: "Cambiar al tema claro",
    },
    chart: {
      time: "Hora",
      date: "Fecha",
    },
    table: {
      previous: "Página anterior",
      next: "Página siguiente",
      page: "Página {{page}}",
      columns: "Columnas",
      sortAscending: "Orden ascendente",
      sortDescending: "Orden descendente",
      rows: "{{from}}–{{to}} de {{total}}",
      rowsOpen: "{{from}}–{{to}}",
      pageOf: "Página {{page}} de {{pages}}",
      pages: "Páginas",
      showColumns: "Mostrar columnas",
      actions: "Acciones",
      rowActions: "Acciones de {{name}}",
    },
  },
};
