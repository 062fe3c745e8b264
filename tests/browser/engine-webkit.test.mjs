// The cross-engine suite (engines/suite.mjs) in webkit: see engines/driver.mjs for how it is driven.
import { crossEngineSuite } from './engines/suite.mjs';

crossEngineSuite('webkit');
