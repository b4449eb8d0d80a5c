import { installMatchers } from './matchers.js';

installMatchers();
