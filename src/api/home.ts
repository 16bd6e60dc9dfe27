import type { HomeData } from '../contract/content.ts';
import { get } from './http.ts';

/** Everything the home page shows, in one answer (src/contract/content.ts). */
export type { HomeData };

/** The home page's data in one call. */
export const getHomeData = () => get<HomeData>('/web/api/fontOverride/home/getData');
