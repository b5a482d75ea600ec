// The sortable list's words (namespace "sortable"): its handles, and what a screen reader hears while a row moves.
import type { Translations } from "@tt/web-kit";

export const SORTABLE_NAMESPACE = "sortable";

const en = {
  handle: "Move {{name}}",
  roleDescription: "drag handle",
  instructions:
    "To pick up an item, press Space or Enter on its handle. Move it with the up and down arrow keys, press Space or Enter again to drop it in its new place, or Escape to cancel.",
  pickedUp: "Picked up {{name}}, at position {{position}} of {{total}}.",
  over: "{{name}} is now at position {{position}} of {{total}}.",
  notOver: "{{name}} is no longer over the list.",
  dropped: "Dropped {{name}} at position {{position}} of {{total}}.",
  stayed: "Dropped {{name}}; it stays at position {{position}} of {{total}}.",
  cancelled: "Moving cancelled. {{name}} is back at position {{position}} of {{total}}.",
};

const es: typeof en = {
  handle: "Mover {{name}}",
  roleDescription: "asa de arrastre",
  instructions:
    "Para coger un elemento, pulsa Espacio o Intro sobre su asa. Muévelo con las flechas arriba y abajo, pulsa de nuevo Espacio o Intro para soltarlo en su nuevo sitio, o Escape para cancelar.",
  pickedUp: "Has cogido {{name}}, en la posición {{position}} de {{total}}.",
  over: "{{name}} está ahora en la posición {{position}} de {{total}}.",
  notOver: "{{name}} ya no está sobre la lista.",
  dropped: "Has soltado {{name}} en la posición {{position}} de {{total}}.",
  stayed: "Has soltado {{name}}; se queda en la posición {{position}} de {{total}}.",
  cancelled: "Movimiento cancelado. {{name}} vuelve a la posición {{position}} de {{total}}.",
};

export const sortableTranslations: Translations = { en, es };
