import { useAppTranslation, useSession } from "@tt/web-kit";
import "./room.css";

const en = {
  title: "Live rooms",
  emptyTitle: "No rooms are live yet",
  emptyBody:
    "Live rooms will be listed here as soon as the room service runs on this server. Nothing is made up in the meantime.",
  guestHint: "You are browsing as a guest; you can listen in any room once rooms are live.",
};

const es: typeof en = {
  title: "Salas en directo",
  emptyTitle: "Todavía no hay salas en directo",
  emptyBody:
    "Las salas en directo aparecerán aquí en cuanto el servicio de salas funcione en este servidor. Mientras tanto no se inventa nada.",
  guestHint: "Estás navegando como invitado; podrás escuchar en cualquier sala cuando haya salas en directo.",
};

/** The room remote's first screen: the list of live rooms (the room service has not landed yet). */
export function App() {
  const { t } = useAppTranslation("room", { en, es });
  const { signedIn } = useSession();
  return (
    <section className="tt-room" aria-labelledby="room-title">
      <h1 id="room-title" className="tt-page-title">
        {t("title")}
      </h1>
      <div className="tt-card tt-empty" role="status">
        <h2>{t("emptyTitle")}</h2>
        <p className="tt-muted">{t("emptyBody")}</p>
        {!signedIn && <p className="tt-muted">{t("guestHint")}</p>}
      </div>
    </section>
  );
}
