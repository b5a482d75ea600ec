{{- /*
Security headers of the web apps (issue 9 defect 9), sent by each frontend's nginx: the same policy as the
all-in-one server (frontends/server/src/security-headers.ts; tests/deploy/chart.test.ts renders the chart
and compares). The Content-Security-Policy allows the site itself, the origins of the remotes in the shell's
remote configuration, the origins of the services in webServiceUrls (connect-src only), the media origin
(media.baseUrl when it is a full URL), the players in frontends.contentSecurityPolicy.players, Agora's servers
when agora.appId is set (connect-src) and the extra sources in frontends.contentSecurityPolicy.extraSources.
HSTS is sent when the request came over TLS (X-Forwarded-Proto: https from the Ingress).
*/ -}}

{{/* The sources each player needs; the same table as PLAYER_SOURCES in security-headers.ts. */}}
{{- define "tt.playerSources" -}}
youtube:
  script: [https://www.youtube.com]
  frame: [https://www.youtube.com, https://www.youtube-nocookie.com]
  img: [https://i.ytimg.com]
soundcloud:
  script: [https://w.soundcloud.com]
  frame: [https://w.soundcloud.com]
  img: ["https://*.sndcdn.com"]
spotify:
  script: [https://open.spotify.com, https://sdk.scdn.co]
  frame: [https://open.spotify.com, https://sdk.scdn.co]
  img: [https://i.scdn.co]
  connect: [https://api.spotify.com]
apple:
  script: [https://js-cdn.music.apple.com]
  img: ["https://*.mzstatic.com"]
  media: ["https://*.itunes.apple.com"]
  connect: [https://api.music.apple.com, "https://*.itunes.apple.com", "https://*.music.apple.com"]
{{- end -}}

{{/* What the Agora Web SDK (the rooms' live audio) reaches when agora.appId is set; the same table as
AGORA_SOURCES in security-headers.ts (tests/deploy/chart.test.ts compares them). */}}
{{- define "tt.agoraSources" -}}
connect: ["https://*.agora.io", "wss://*.agora.io", "https://*.sd-rtn.com", "wss://*.sd-rtn.com"]
{{- end -}}

{{/* The origin serving a URL as a CSP source (scheme://host[:port], or host[:port] for //host/…); empty for a
site-relative URL or anything else. */}}
{{- define "tt.cspOriginOf" -}}
{{- $url := toString . -}}
{{- $u := urlParse $url -}}
{{- $host := lower (toString $u.host) -}}
{{- if regexMatch "^[a-z0-9-]+(\\.[a-z0-9-]+)*(:[0-9]{1,5})?$" $host -}}
{{- if hasPrefix "//" $url -}}
{{- $host -}}
{{- else if has (lower $u.scheme) (list "http" "https") -}}
{{- printf "%s://%s" (lower $u.scheme) $host -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The Content-Security-Policy of the pages, one line. */}}
{{- define "tt.contentSecurityPolicy" -}}
{{- $csp := .Values.frontends.contentSecurityPolicy -}}
{{- $remotes := list -}}
{{- range (include "tt.remotesConfig" . | fromJsonArray) -}}
{{- with include "tt.cspOriginOf" .entry -}}
{{- $remotes = append $remotes . -}}
{{- end -}}
{{- end -}}
{{- $services := list -}}
{{- range $_, $url := .Values.webServiceUrls -}}
{{- with include "tt.cspOriginOf" $url -}}
{{- $services = append $services . -}}
{{- end -}}
{{- end -}}
{{- $media := list -}}
{{- with include "tt.cspOriginOf" (fromYaml (include "tt.media" .)).baseUrl -}}
{{- $media = list . -}}
{{- end -}}
{{- $players := fromYaml (include "tt.playerSources" .) -}}
{{- $agora := ternary (fromYaml (include "tt.agoraSources" .)) (dict) (ne .Values.agora.appId "") -}}
{{- $src := dict -}}
{{- range $directive := list "script" "style" "img" "media" "connect" "frame" "font" -}}
{{- $sources := list -}}
{{- range $player := $csp.players -}}
{{- $sources = concat $sources (get (get $players $player) $directive | default list) -}}
{{- end -}}
{{- $sources = concat $sources (get $agora $directive | default list) -}}
{{- $sources = concat $sources (get $csp.extraSources $directive | default list) -}}
{{- $_ := set $src $directive $sources -}}
{{- end -}}
{{- $self := list "'self'" -}}
{{- $d := list -}}
{{- $d = append $d (list "default-src" $self) -}}
{{- $d = append $d (list "script-src" (concat $self $remotes $src.script)) -}}
{{- $d = append $d (list "style-src" (concat $self $remotes $src.style)) -}}
{{- $d = append $d (list "img-src" (concat $self (list "data:" "blob:") $media $remotes $src.img)) -}}
{{- $d = append $d (list "media-src" (concat $self (list "blob:") $media $src.media)) -}}
{{- $d = append $d (list "font-src" (concat $self $remotes $src.font)) -}}
{{- $d = append $d (list "connect-src" (concat $self $remotes $services $media $src.connect)) -}}
{{- $d = append $d (list "worker-src" (list "'self'" "blob:")) -}}
{{- $d = append $d (list "frame-src" (concat $self $src.frame)) -}}
{{- $d = append $d (list "manifest-src" $self) -}}
{{- $d = append $d (list "object-src" (list "'none'")) -}}
{{- $d = append $d (list "base-uri" $self) -}}
{{- $d = append $d (list "form-action" $self) -}}
{{- $d = append $d (list "frame-ancestors" (list "'none'")) -}}
{{- $parts := list -}}
{{- range $d -}}
{{- $parts = append $parts (printf "%s %s" (index . 0) (join " " (uniq (index . 1)))) -}}
{{- end -}}
{{- join "; " $parts -}}
{{- end -}}

{{/* nginx: HSTS only over TLS (an empty value sends no header). Goes before the server block. */}}
{{- define "tt.nginxHstsMap" -}}
map $http_x_forwarded_proto $tt_hsts {
    "~*^https\s*(,|$)" "max-age=31536000";
    default "";
}
{{- end -}}

{{/* nginx add_header lines of a location: (dict "page" bool "csp" string). A location with add_header of its
own drops the server's, so every location includes these. */}}
{{- define "tt.nginxSecurityHeaders" -}}
{{- $lines := list -}}
{{- if .page -}}
{{- $lines = append $lines (printf "add_header Content-Security-Policy \"%s\" always;" .csp) -}}
{{- $lines = append $lines "add_header X-Frame-Options \"DENY\" always;" -}}
{{- end -}}
{{- $lines = append $lines "add_header X-Content-Type-Options \"nosniff\" always;" -}}
{{- $lines = append $lines "add_header Referrer-Policy \"strict-origin-when-cross-origin\" always;" -}}
{{- $lines = append $lines "add_header Strict-Transport-Security $tt_hsts always;" -}}
{{- join "\n" $lines -}}
{{- end -}}
