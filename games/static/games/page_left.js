// Every page: says again that the game's page this tab showed before was left
// (games/open_page.js), so that a push held for it is held no longer.
import { repeatLeft } from "./open_page.js";

repeatLeft();
