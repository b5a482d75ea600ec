// Paints a generated avatar's SVG on a 2D canvas without an SVG image. Each SVG image Chromium decodes is a document
// of its own (a page, a frame, its style and layout): about 0.4 MB each, kept until a garbage collection and often
// after it by the memory cache. A room's page draws an avatar for every person it shows, hundreds in a full room, and
// that was most of its memory (decision 0307). DiceBear's output is a small, regular subset of SVG, read here as plain
// objects and painted with Path2D; an element outside that subset throws, and the caller decodes that one the old way
// (attributes other than those below are not read: tests/e2e/web-avatar-paint.e2e.test.ts compares the painting with
// Chromium's own, and fails when a DiceBear release writes something this does not paint).

/** An element of the SVG as parsed here: its name, its attributes and its child elements. */
export interface SvgElement {
  name: string;
  attrs: Record<string, string>;
  children: SvgElement[];
}

type Context2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

const TAG = /<(\/?)([\w:-]+)((?:\s+[\w:-]+="[^"]*")*)\s*(\/?)>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>/g;
const ATTRIBUTE = /([\w:-]+)="([^"]*)"/g;
const TRANSLATE = /^translate\(\s*(-?[\d.]+)(?:[\s,]+(-?[\d.]+))?\s*\)$/;
const REFERENCE = /^(?:url\(#(.+)\)|#(.+))$/;

/** The root element of an SVG document written as DiceBear writes it (no text content, no entities, no CDATA). */
export function parseSvg(text: string): SvgElement {
  const top: SvgElement = { name: "", attrs: {}, children: [] };
  const open = [top];
  for (const match of text.matchAll(TAG)) {
    const [, closing, name, attributes, selfClosing] = match;
    if (name === undefined) continue;
    if (closing) {
      if (open.length === 1 || open.pop()!.name !== name) throw new Error(`unexpected </${name}>`);
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const [, key, value] of attributes!.matchAll(ATTRIBUTE)) attrs[key!] = value!;
    const element: SvgElement = { name, attrs, children: [] };
    open.at(-1)!.children.push(element);
    if (!selfClosing) open.push(element);
  }
  const root = top.children[0];
  if (open.length !== 1 || top.children.length !== 1 || root?.name !== "svg") throw new Error("not one svg element");
  return root;
}

/**
 * Paints `svg` scaled to `size` × `size` pixels at the context's origin. Elements: svg (viewBox), g (translate,
 * opacity, clip-path of rects, a mask of mask-type alpha), path (d, fill), rect (x, y, width, height, rx, fill), use
 * (href, translate); defs, clipPath, mask and metadata are only painted where referenced. Throws on other elements.
 */
export function paintSvg(context: Context2D, svg: SvgElement, size: number): void {
  const byId = new Map<string, SvgElement>();
  const index = (element: SvgElement) => {
    if (element.attrs["id"]) byId.set(element.attrs["id"], element);
    element.children.forEach(index);
  };
  index(svg);
  const referenced = (value: string): SvgElement => {
    const match = REFERENCE.exec(value);
    const element = match && byId.get(match[1] ?? match[2]!);
    if (!element) throw new Error(`unknown reference ${value}`);
    return element;
  };
  // DiceBear sets fill on the root and on shapes only: what a mask's shapes inherit is the root's.
  const rootFill = svg.attrs["fill"] ?? "black";
  const number = (element: SvgElement, name: string) => Number(element.attrs[name] ?? 0);
  const translate = (c: Context2D, element: SvgElement) => {
    const transform = element.attrs["transform"];
    if (transform === undefined) return;
    const match = TRANSLATE.exec(transform);
    if (!match) throw new Error(`transform ${transform}`);
    c.translate(Number(match[1]), Number(match[2] ?? 0));
  };
  /** A canvas the size of the target with the same transform, to paint a group on before compositing it. */
  const layer = (c: Context2D): OffscreenCanvasRenderingContext2D => {
    const target = new OffscreenCanvas(context.canvas.width, context.canvas.height).getContext("2d");
    if (!target) throw new Error("no 2D context");
    target.setTransform(c.getTransform());
    return target;
  };

  const paint = (c: Context2D, element: SvgElement, inheritedFill: string): void => {
    const fill = element.attrs["fill"] ?? inheritedFill;
    switch (element.name) {
      case "defs":
      case "clipPath":
      case "mask":
      case "metadata":
      case "title":
      case "desc":
        return;
      case "path":
        if (fill !== "none") {
          c.fillStyle = fill;
          c.fill(new Path2D(element.attrs["d"] ?? ""));
        }
        return;
      case "rect":
        if (fill !== "none") {
          c.fillStyle = fill;
          c.beginPath();
          const [x, y, w, h] = ["x", "y", "width", "height"].map((name) => number(element, name)) as [
            number,
            number,
            number,
            number,
          ];
          c.roundRect(x, y, w, h, number(element, "rx"));
          c.fill();
        }
        return;
      case "use":
        c.save();
        translate(c, element);
        paint(c, referenced(element.attrs["href"] ?? ""), fill);
        c.restore();
        return;
      case "g":
        group(c, element, fill);
        return;
      default:
        throw new Error(`element ${element.name}`);
    }
  };

  const group = (c: Context2D, element: SvgElement, fill: string): void => {
    c.save();
    translate(c, element);
    const clip = element.attrs["clip-path"];
    if (clip) {
      const path = new Path2D();
      for (const shape of referenced(clip).children) {
        if (shape.name !== "rect") throw new Error(`clip ${shape.name}`);
        path.roundRect(
          number(shape, "x"),
          number(shape, "y"),
          number(shape, "width"),
          number(shape, "height"),
          number(shape, "rx"),
        );
      }
      c.clip(path);
    }
    const opacity = Number(element.attrs["opacity"] ?? 1);
    const mask = element.attrs["mask"];
    const masking = mask === undefined ? undefined : referenced(mask);
    // A luminance mask (SVG's default) would need its colours turned into alpha first.
    if (masking && !/mask-type:\s*alpha/.test(masking.attrs["style"] ?? "")) throw new Error("a luminance mask");
    if (opacity === 1 && !masking) {
      for (const child of element.children) paint(c, child, fill);
    } else {
      // SVG composites a group first, then applies its mask (the mask's alpha: DiceBear's are mask-type:alpha) and
      // its opacity to the whole.
      const content = layer(c);
      for (const child of element.children) paint(content, child, fill);
      if (masking) {
        const alpha = layer(c);
        for (const child of masking.children) paint(alpha, child, rootFill);
        content.setTransform(1, 0, 0, 1, 0, 0);
        content.globalCompositeOperation = "destination-in";
        content.drawImage(alpha.canvas, 0, 0);
      }
      c.setTransform(1, 0, 0, 1, 0, 0);
      c.globalAlpha *= opacity;
      c.drawImage(content.canvas, 0, 0);
    }
    c.restore();
  };

  const [, , width, height] = (svg.attrs["viewBox"] ?? "").split(/[\s,]+/).map(Number);
  if (!width || !height) throw new Error("no viewBox");
  context.save();
  context.scale(size / width, size / height);
  for (const child of svg.children) paint(context, child, rootFill);
  context.restore();
}
