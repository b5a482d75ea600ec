// Strings the kit itself shows, in the "common" namespace.
export const en = {
  loading: "Loading…",
  errors: {
    generic: "Something went wrong, please try again.",
  },
  remote: {
    loading: "Loading {{name}}…",
    unavailableTitle: "{{name}} is unavailable right now",
    unavailableBody: "This part of the app could not be loaded. The rest of the app keeps working.",
    retry: "Try again",
  },
  ui: {
    followCounts: { label: "Fans and following", fans: "Fans", following: "Following" },
    close: "Close",
    cancel: "Cancel",
    dismiss: "Dismiss",
    notifications: "Notifications",
    choose: "Choose…",
    theme: {
      label: "Theme",
      dark: "Dark",
      light: "Light",
      system: "Same as the system",
      toDark: "Switch to the dark theme",
      toLight: "Switch to the light theme",
    },
    chart: {
      time: "Time",
      date: "Date",
    },
    table: {
      previous: "Previous page",
      next: "Next page",
      page: "Page {{page}}",
      columns: "Columns",
      sortAscending: "Sorted ascending",
      sortDescending: "Sorted descending",
      rows: "{{from}}–{{to}} of {{total}}",
      rowsOpen: "{{from}}–{{to}}",
      pageOf: "Page {{page}} of {{pages}}",
      pages: "Pages",
      showColumns: "Show columns",
      actions: "Actions",
      rowActions: "Actions for {{name}}",
    },
  },
};
