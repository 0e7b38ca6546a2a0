import type { Scenario } from "../lib/scenario";
import { api } from "./api";
import { calendar } from "./calendar";
import { communities } from "./communities";
import { courses } from "./courses";
import { faults } from "./faults";
import { foundation } from "./foundation";
import { levels } from "./levels";
import { messages } from "./messages";
import { mixed } from "./mixed";
import { payments } from "./payments";
import { posts } from "./posts";
import { realtime } from "./realtime";
import { search } from "./search";
import { uploads } from "./uploads";

/** Every scenario, in the order `npm run bench` runs them. Later issues add theirs here. */
export const SCENARIOS: Scenario[] = [
  foundation,
  communities,
  posts,
  api,
  mixed,
  faults,
  uploads,
  courses,
  realtime,
  payments,
  calendar,
  levels,
  messages,
  search,
];
