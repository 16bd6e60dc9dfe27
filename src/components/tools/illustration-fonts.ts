// Library fonts for the pictures of the tools overview, loaded without any script: the page asks the
// subset service on the server for just the characters each picture shows and writes @font-face rules.
import { subsetFonts } from '../../server/webfont/subset.ts';

/** One run of text in a picture and the library fonts it may be set in, best first. */
export interface IllustrationText {
  /** Names the CSS family `tools-<key>`. */
  key: string;
  text: string;
  gnos: string[];
}

/** The fonts found for the pictures. */
export interface IllustrationFonts {
  /** @font-face rules, one for each text whose font the library holds. */
  css: string;
  /** The Chinese name of the family each text is set in, by key. */
  names: Record<string, string>;
}

/** The CSS family a picture's text uses; the serif system face stands in when no font was found. */
export const illustrationFamily = (key: string) => `'tools-${key}', var(--font-serif)`;

async function firstAvailable(item: IllustrationText): Promise<{ rule: string; name: string } | undefined> {
  for (const gno of item.gnos) {
    try {
      const [result] = await subsetFonts([{ gno, text: item.text }]);
      if (!result) continue;
      return {
        rule: `@font-face{font-family:'tools-${item.key}';src:url('${result.woffPath}') format('woff2');font-display:swap}`,
        name: result.familyName,
      };
    } catch {
      // This family is not in the library (a smaller seed): try the next one.
    }
  }
  return undefined;
}

/** How long the page waits for the pictures' fonts; past it, they fall back to the system serif. */
const FONT_WAIT_MS = 1500;

/** Finds a library font for every picture text and writes the rules that load them. */
export async function illustrationFonts(items: IllustrationText[]): Promise<IllustrationFonts> {
  // A busy subset pool must not hold up the page: pictures read well in the fallback face too.
  const late = new Promise<undefined>((resolve) => setTimeout(resolve, FONT_WAIT_MS));
  const found = await Promise.all(items.map((item) => Promise.race([firstAvailable(item), late])));
  const names: Record<string, string> = {};
  const rules: string[] = [];
  items.forEach((item, index) => {
    const hit = found[index];
    if (!hit) return;
    rules.push(hit.rule);
    names[item.key] = hit.name;
  });
  return { css: rules.join('\n'), names };
}
