// The cross-engine suite (engines/suite.mjs) in chromium: see engines/driver.mjs for how it is driven.
import { crossEngineSuite } from './engines/suite.mjs';

crossEngineSuite('chromium');
