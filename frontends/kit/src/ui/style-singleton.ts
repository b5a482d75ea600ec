// What the Radix overlays' scroll lock (react-remove-scroll-bar) uses to add its rules while a dialog, select or
// menu is open, with react-style-singleton's API, written into a constructed stylesheet that the document adopts
// instead of an injected <style> element. The pages' Content-Security-Policy (style-src 'self', no
// 'unsafe-inline') refuses the element and reports a violation; the CSS Object Model is outside CSP, so the lock
// works with the policy unchanged. webpack resolves "react-style-singleton" here (webpack-config.cjs).
import { useEffect } from "react";

interface Sheet {
  add(style: string): void;
  remove(): void;
}

export function stylesheetSingleton(): Sheet {
  let counter = 0;
  let sheet: CSSStyleSheet | undefined;
  return {
    add(style) {
      if (counter === 0 && typeof document !== "undefined") {
        sheet = new CSSStyleSheet();
        sheet.replaceSync(style);
        document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
      }
      counter++;
    },
    remove() {
      counter--;
      if (counter === 0 && sheet) {
        const removed = sheet;
        document.adoptedStyleSheets = document.adoptedStyleSheets.filter((adopted) => adopted !== removed);
        sheet = undefined;
      }
    },
  };
}

export function styleHookSingleton(): (styles: string, isDynamic?: boolean) => void {
  const sheet = stylesheetSingleton();
  return (styles, isDynamic) => {
    useEffect(() => {
      sheet.add(styles);
      return () => sheet.remove();
      // As the original: the rules are taken again only when dynamic styles change.
      // eslint-disable-next-line react-hooks/exhaustive-deps
    }, [styles && isDynamic]);
  };
}

export function styleSingleton() {
  const useStyle = styleHookSingleton();
  return function Sheet({ styles, dynamic }: { styles: string; dynamic?: boolean }) {
    useStyle(styles, dynamic);
    return null;
  };
}
