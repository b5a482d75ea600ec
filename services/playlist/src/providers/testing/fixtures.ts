// Provider answers in their documented shapes, for the recording fakes of the provider tests and the
// service's route tests, and the variables that point the service's Spotify client at such a fake (exported as
// `@tt/playlist-service/testing` for the suites that run the playlist service beside their own).
export const spotifyTrackJson = (id = "4uLU6hMCjMI75M1A2tKUQC", isrc = "GBARL9300135") => ({
  id,
  name: "Never Gonna Give You Up",
  duration_ms: 213_573,
  explicit: false,
  preview_url: "https://p.scdn.co/mp3-preview/x",
  external_ids: { isrc },
  external_urls: { spotify: `https://open.spotify.com/track/${id}` },
  artists: [{ name: "Rick Astley" }],
  album: {
    name: "Whenever You Need Somebody",
    release_date: "1987-11-12",
    images: [{ url: "https://i.scdn.co/a.jpg" }],
  },
});

export const appleSongJson = (id = "1440857786", isrc = "GBARL9300135") => ({
  id,
  type: "songs",
  attributes: {
    name: "Never Gonna Give You Up",
    artistName: "Rick Astley",
    albumName: "Whenever You Need Somebody",
    durationInMillis: 213_573,
    isrc,
    contentRating: "explicit",
    url: `https://music.apple.com/us/album/x/1?i=${id}`,
    artwork: { url: "https://is1.mzstatic.com/{w}x{h}bb.jpg" },
    previews: [{ url: "https://audio-ssl.itunes.apple.com/p.m4a" }],
    genreNames: ["Pop"],
    releaseDate: "1987-07-27",
    playParams: { id, kind: "song" },
  },
});

export const soundCloudTrackJson = (id = 123, title = "Night Drive", user = "DJ Kay") => ({
  id,
  title,
  duration: 181_000,
  genre: "House",
  permalink_url: `https://soundcloud.com/djkay/${id}`,
  artwork_url: "https://i1.sndcdn.com/artworks-x-large.jpg",
  user: { username: user },
  created_at: "2020/01/02 10:00:00 +0000",
});

/** The playlist service's Spotify variables: made-up client credentials, both base URLs at the fake at `url`. */
export const fakeSpotifyEnv = (url: string) => ({
  SPOTIFY_CLIENT_ID: "cid",
  SPOTIFY_CLIENT_SECRET: "secret",
  SPOTIFY_ACCOUNTS_BASE_URL: url,
  SPOTIFY_API_BASE_URL: url,
});
