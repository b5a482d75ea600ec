import { useAppTranslation, useSession } from "@tt/web-kit";
import { Headphones, ListMusic, ThumbsUp } from "lucide-react";
import { RemoteOutlet } from "../remotes/RemoteOutlet.tsx";
import { Link } from "../router.tsx";
import { SHELL_NAMESPACE, shellTranslations } from "../locales.ts";
import { isNewAccount } from "./welcome.ts";

/**
 * A record on a deck under stage lights, drawn in SVG with the theme's colours: the first page fetches no image.
 * Decorative; the spin stops for people who ask for reduced motion.
 */
function HeroArt() {
  return (
    <div className="tt-hero__art" aria-hidden="true">
      <div className="tt-hero__beams" />
      <svg className="tt-hero__deck" viewBox="0 0 320 320" role="presentation" focusable="false">
        <defs>
          <radialGradient id="tt-hero-vinyl" cx="50%" cy="50%" r="50%">
            <stop offset="0%" className="tt-hero__stop-vinyl-inner" />
            <stop offset="100%" className="tt-hero__stop-vinyl-outer" />
          </radialGradient>
          <linearGradient id="tt-hero-label" x1="0" y1="0" x2="1" y2="1">
            <stop offset="0%" className="tt-hero__stop-label-a" />
            <stop offset="100%" className="tt-hero__stop-label-b" />
          </linearGradient>
        </defs>
        <rect x="8" y="8" width="304" height="304" rx="28" className="tt-hero__plinth" />
        <g className="tt-hero__record">
          <circle cx="150" cy="160" r="122" fill="url(#tt-hero-vinyl)" />
          {[108, 96, 84, 72, 60].map((r) => (
            <circle key={r} cx="150" cy="160" r={r} className="tt-hero__groove" />
          ))}
          <path d="M150 38 A122 122 0 0 1 262 110" className="tt-hero__shine" />
          <circle cx="150" cy="160" r="40" fill="url(#tt-hero-label)" />
          <circle cx="150" cy="160" r="5" className="tt-hero__spindle" />
        </g>
        <g className="tt-hero__arm">
          <circle cx="278" cy="48" r="16" className="tt-hero__pivot" />
          <path d="M278 48 L272 176 L236 214" className="tt-hero__tonearm" />
          <rect
            x="222"
            y="204"
            width="26"
            height="16"
            rx="4"
            transform="rotate(-40 235 212)"
            className="tt-hero__head"
          />
        </g>
      </svg>
      <div className="tt-hero__eq">
        {Array.from({ length: 9 }, (_, bar) => (
          <span key={bar} style={{ animationDelay: `${(bar * 137) % 900}ms` }} />
        ))}
      </div>
    </div>
  );
}

export function HomePage() {
  const { t } = useAppTranslation(SHELL_NAMESPACE, shellTranslations);
  const { signedIn, user } = useSession();
  // The header's account menu fetches the profile and keeps the session's nickname current; the home page is the
  // first screen and carries no query library.
  const name = user?.nickname || user?.email;
  const isNew = isNewAccount(user?.uuid);
  const features = [
    { icon: <Headphones aria-hidden="true" />, title: t("home.features.booth"), body: t("home.features.boothBody") },
    { icon: <ThumbsUp aria-hidden="true" />, title: t("home.features.floor"), body: t("home.features.floorBody") },
    { icon: <ListMusic aria-hidden="true" />, title: t("home.features.crates"), body: t("home.features.cratesBody") },
  ];
  return (
    <div className="tt-home">
      <section className="tt-hero" aria-labelledby="home-title">
        <div className="tt-hero__copy">
          <p className="tt-eyebrow tt-hero__eyebrow">
            <span className="tt-hero__live" aria-hidden="true" />
            {t("home.eyebrow")}
          </p>
          <h1 id="home-title" className="tt-hero-title">
            {t("home.title")}
          </h1>
          <p className="tt-hero-intro">{t("home.intro")}</p>
          {signedIn ? (
            <p className="tt-hero__greeting" data-testid="home-greeting">
              {isNew ? t("home.welcomeNew", { name }) : t("home.welcome", { name })}
            </p>
          ) : (
            <p className="tt-hero__guest">
              <span className="tt-badge">{t("header.guest")}</span> {t("home.guestHint")}
            </p>
          )}
          <div className="tt-hero__actions">
            <Link className="tt-button tt-hero__cta" to="/room">
              {t("home.browse")}
            </Link>
            {!signedIn && (
              <Link className="tt-button tt-button--secondary tt-hero__cta" to="/signup">
                {t("home.join")}
              </Link>
            )}
          </div>
        </div>
        <HeroArt />
      </section>
      {/* The busiest live rooms and a way into the first, from the room remote (loaded after the page shows). */}
      <RemoteOutlet name="room" exposed="LiveNow" title={t("nav.room")} />
      <section className="tt-home-features" aria-labelledby="home-features-title">
        <h2 id="home-features-title" className="tt-visually-hidden">
          {t("home.features.title")}
        </h2>
        <ul>
          {features.map((feature) => (
            <li key={feature.title} className="tt-card">
              <span className="tt-icon-tile tt-home-features__icon">{feature.icon}</span>
              <h3>{feature.title}</h3>
              <p className="tt-muted">{feature.body}</p>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
