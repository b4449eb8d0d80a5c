import { installMatchers } from './matchers';

installMatchers();
