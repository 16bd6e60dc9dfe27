// How the tools name a library font to the server: by the child font's numeric id (fonts.id).

import type { FontSource } from '../../api/font-tools.ts';
import type { ChildFontResource } from '../../api/fonts.ts';

/** The source of a tool job for one weight of a library family; undefined when it has no id. */
export function librarySource(child: ChildFontResource): FontSource | undefined {
  return child.id === undefined ? undefined : { fontId: child.id };
}
