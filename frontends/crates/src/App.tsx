import { useAppTranslation, useSession } from "@tt/web-kit";
import "./crates.css";

const en = {
  title: "Your crates",
  guestTitle: "Sign in to keep crates",
  guestBody: "Crates are your playlists: the queue you DJ from, your starred songs and any list you make.",
  emptyTitle: "No crates yet",
  emptyBody:
    "Your queue, your starred songs and your playlists will show here as soon as the playlist service runs on this server.",
  signIn: "Log in",
};

const es: typeof en = {
  title: "Tus cajas",
  guestTitle: "Inicia sesión para guardar cajas",
  guestBody:
    "Las cajas son tus listas: la cola desde la que pinchas, tus canciones destacadas y cualquier lista que crees.",
  emptyTitle: "Aún no hay cajas",
  emptyBody:
    "Tu cola, tus canciones destacadas y tus listas aparecerán aquí en cuanto el servicio de listas funcione en este servidor.",
  signIn: "Iniciar sesión",
};

/** The crates remote's first screen (the playlist service has not landed yet). */
export function App() {
  const { t } = useAppTranslation("crates", { en, es });
  const { signedIn } = useSession();
  return (
    <section className="tt-crates" aria-labelledby="crates-title">
      <h1 id="crates-title" className="tt-page-title">
        {t("title")}
      </h1>
      {signedIn ? (
        <div className="tt-card tt-empty" role="status">
          <h2>{t("emptyTitle")}</h2>
          <p className="tt-muted">{t("emptyBody")}</p>
        </div>
      ) : (
        <div className="tt-card tt-empty" role="status">
          <h2>{t("guestTitle")}</h2>
          <p className="tt-muted">{t("guestBody")}</p>
          {/* A plain link: the remote does not depend on the shell's router. */}
          <a className="tt-button" href="/login">
            {t("signIn")}
          </a>
        </div>
      )}
    </section>
  );
}
