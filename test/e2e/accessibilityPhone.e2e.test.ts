import { describeAccessibilitySweep, VIEWPORTS } from './helpers/accessibilitySweep';

// Every route at phone size (390×844), signed out and in, with data: no serious or critical axe violation.
describeAccessibilitySweep(VIEWPORTS.phone);
