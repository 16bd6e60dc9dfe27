import { get } from './http.ts';

/** What the home page shows; the content issue defines the sections. */
export type HomeData = Record<string, unknown>;

/** The home page's data in one call. */
export const getHomeData = () => get<HomeData>('/web/api/fontOverride/home/getData');
