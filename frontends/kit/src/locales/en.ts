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
};
