/**
 * A deterministic recall corpus for the automatic memory's benchmarks: facts peers told the agent
 * weeks apart on several timelines, each paired with a question that asks for it in other words,
 * buried among distractors (the same people and projects talked about otherwise) and everyday
 * filler. Seeded, so every run measures the same corpus.
 *
 *   import { recallCorpus } from "./recall_corpus.ts";
 *   const corpus = recallCorpus({ seed: 7, filler: 2000 });
 */
import { prng } from "../tests/core/session_large.ts";

/** One stored exchange of the corpus. */
export interface CorpusExchange {
  /** Index in {@link Corpus.exchanges}. */
  readonly id: number;
  /** The rendered user text (`[created_at] handle: body`), as a wake hands it to memory. */
  readonly user: string;
  /** The agent's closing text. */
  readonly assistant: string;
  /** The timeline it happened on. */
  readonly timeline: string;
  /** When. */
  readonly at: Date;
}

/** A question and the exchange that answers it. */
export interface CorpusQuestion {
  /** The question as the peer asks it later, rendered like a message line. */
  readonly query: string;
  /** The id of the exchange holding the fact. */
  readonly answer: number;
  /** The template it came from. */
  readonly template: string;
}

/** The generated corpus. */
export interface Corpus {
  readonly exchanges: CorpusExchange[];
  readonly questions: CorpusQuestion[];
  /** "Now": when the questions are asked. */
  readonly now: Date;
}

const NAMES = [
  "alice",
  "bruno",
  "carmen",
  "dmitri",
  "elena",
  "farid",
  "greta",
  "hiro",
  "ingrid",
  "jamal",
  "kasia",
  "lorenzo",
  "mei",
  "nadia",
  "oskar",
  "priya",
  "quentin",
  "rosa",
  "sven",
  "tariq",
  "ursula",
  "viktor",
  "wanda",
  "xavier",
  "yusuf",
  "zara",
  "amara",
  "boris",
  "chiara",
  "dev",
];
const PROJECTS = [
  "atlas",
  "borealis",
  "cobalt",
  "driftwood",
  "ember",
  "falcon",
  "granite",
  "harbor",
  "iris",
  "juniper",
  "kestrel",
  "lumen",
  "meridian",
  "nimbus",
  "orchid",
  "pylon",
  "quasar",
  "ridge",
  "sable",
  "tundra",
  "umbra",
  "vesper",
  "willow",
  "xenon",
  "yarrow",
  "zephyr",
];
const PETS = ["biscuit", "pickle", "mango", "noodle", "pepper", "waffles", "ziggy", "truffle"];
const CITIES = [
  "lisbon",
  "montreal",
  "osaka",
  "nairobi",
  "valparaiso",
  "tallinn",
  "hobart",
  "bergen",
];
const FOODS = ["ramen", "paella", "pierogi", "biryani", "ceviche", "goulash", "bibimbap", "tagine"];
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August"];
const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"];
const HOSTS = ["gitlab", "codeberg", "sourcehut", "bitbucket", "gitea"];
const CARS = ["volvo", "subaru", "skoda", "peugeot", "mazda", "fiat"];
const COLORS = ["teal", "crimson", "silver", "olive", "navy"];
const INSTRUMENTS = ["cello", "banjo", "trumpet", "harp", "accordion", "ukulele"];

type Pick = <T>(list: readonly T[]) => T;
/** A day of the month, 1–28. */
type Day = () => number;

/** A fact template: what the peer said, and how someone later asks for it. */
interface Template {
  readonly name: string;
  /** Fact and question for one subject (a person), with values picked from `pick`. */
  make(
    person: string,
    project: string,
    pick: Pick,
    day: Day,
  ): { fact: string; questions: string[] };
}

const ALLERGENS = ["peanuts", "shellfish", "sesame", "kiwi", "gluten", "walnuts"];

const TEMPLATES: Template[] = [
  {
    // The hard case for lexical recall: the second question shares only the name with the fact.
    name: "allergy",
    make: (p, _j, pick, _d) => {
      const allergen = pick(ALLERGENS);
      return {
        fact: `I'm allergic to ${allergen}, so no ${allergen} in the team snacks please`,
        questions: [`does ${p} have any food allergies?`, `what can't ${p} eat?`],
      };
    },
  },
  {
    name: "pet",
    make: (p, _j, pick, _d) => ({
      fact: `our new puppy is called ${pick(PETS)}, she chews everything`,
      questions: [`what is the name of ${p}'s puppy?`, `remind me what ${p} called the puppy`],
    }),
  },
  {
    name: "birthday",
    make: (p, _j, pick, d) => ({
      fact: `my birthday is ${pick(MONTHS)} ${d()}, 1984`,
      questions: [`when is ${p}'s birthday?`, `what date does ${p} celebrate a birthday?`],
    }),
  },
  {
    name: "city",
    make: (p, _j, pick, _d) => ({
      fact: `we finally moved to ${pick(CITIES)}, the flat has a view of the harbour`,
      questions: [`which city did ${p} move to?`, `where does ${p} live since the move?`],
    }),
  },
  {
    name: "food",
    make: (p, _j, pick, _d) => ({
      fact: `honestly ${pick(FOODS)} is my favourite dish, I could eat it daily`,
      questions: [`what is ${p}'s favourite dish?`, `which dish does ${p} like best?`],
    }),
  },
  {
    name: "launch",
    make: (_p, j, pick, d) => ({
      fact: `the ${j} launch is scheduled for ${pick(MONTHS)} ${d()}, after the security review`,
      questions: [`when is ${j} launching?`, `what's the launch date for ${j}?`],
    }),
  },
  {
    name: "endpoint",
    make: (_p, j, pick, _d) => ({
      fact: `the ${j} API lives at https://${j}.${pick(HOSTS)}.example/v2 now, v1 is gone`,
      questions: [`what was the endpoint of the ${j} API?`, `which URL does the ${j} API use?`],
    }),
  },
  {
    name: "meeting",
    make: (_p, j, pick, _d) => ({
      fact: `let's hold the ${j} sync every ${pick(WEEKDAYS)} at 10:30, starting next week`,
      questions: [`what day is the ${j} sync?`, `when do we meet for the ${j} sync?`],
    }),
  },
  {
    name: "repository",
    make: (_p, j, pick, _d) => ({
      fact: `the ${j} repository moved to ${pick(HOSTS)}, update your remotes`,
      questions: [`where is the ${j} repository hosted?`, `which forge hosts the ${j} repository?`],
    }),
  },
  {
    name: "car",
    make: (p, _j, pick, _d) => ({
      fact: `I bought a ${pick(COLORS)} ${pick(CARS)} estate, finally a car that fits the bikes`,
      questions: [`what car did ${p} buy?`, `which car does ${p} drive now?`],
    }),
  },
  {
    name: "instrument",
    make: (p, _j, pick, _d) => ({
      fact: `I started ${pick(INSTRUMENTS)} lessons, the instrument is harder than it looks`,
      questions: [`which instrument is ${p} learning?`, `what instrument lessons did ${p} start?`],
    }),
  },
];

/** Talk about the same people and projects that answers none of the questions. */
const DISTRACTORS = [
  (p: string, j: string) => `thanks for the help with ${j} yesterday, ${p} says hi too`,
  (_p: string, j: string) => `the ${j} build is green again after the flaky test fix`,
  (p: string) => `${p} had a great weekend hiking, the weather held up`,
  (_p: string, j: string) => `can you review the ${j} pull request when you have a minute?`,
  (p: string) => `I'll be out Thursday afternoon, ${p} is covering for me`,
  (_p: string, j: string) => `the ${j} docs need a new screenshot of the settings page`,
];

/** Everyday filler with no names or projects. */
const FILLER = [
  "good morning! coffee machine is broken again",
  "the standup notes are in the shared folder",
  "did anyone see the email about the office move",
  "reminder: fill in the timesheet before friday",
  "lunch order goes out at noon, reply with your choice",
  "the printer on the third floor jams on double-sided pages",
  "welcome to the new folks joining this week",
  "the wifi password changed, ask the front desk",
];

/** The corpus for `seed`, with `filler` everyday exchanges besides facts and distractors. */
export function recallCorpus(options: { seed?: number; filler?: number } = {}): Corpus {
  const random = prng(options.seed ?? 7);
  const pick: Pick = (list) => list[Math.floor(random() * list.length)];
  return build(random, pick, options.filler ?? 2000);
}

/** How many templates each person's facts use (30 people × 7 = 210 questions). */
const FACTS_PER_PERSON = 7;
const PROJECT_TEMPLATES = new Set(["launch", "endpoint", "meeting", "repository"]);

function build(random: () => number, pick: Pick, filler: number): Corpus {
  const now = new Date("2026-12-01T12:00:00Z");
  const day = 86_400_000;
  const timelines = Array.from(
    { length: 6 },
    (_, i) => `${(i + 1).toString(16).repeat(8)}-0000-4000-8000-000000000000`,
  );
  const exchanges: CorpusExchange[] = [];
  const questions: CorpusQuestion[] = [];
  const add = (speaker: string, body: string, at: Date, assistant = "Noted.") => {
    const id = exchanges.length;
    exchanges.push({
      id,
      user: `[${at.toISOString()}] ${speaker}: ${body}`,
      assistant,
      timeline: pick(timelines),
      at,
    });
    return id;
  };
  // Facts: each person tells seven kinds of fact, 2 to 12 weeks ago.
  // A project's fact of one kind is told once, so every question has exactly one answer.
  const told = new Set<string>();
  let projectAt = 0;
  const dayOfMonth = () => 1 + Math.floor(random() * 28);
  for (const [n, person] of NAMES.entries()) {
    const chosen = new Set<number>();
    while (chosen.size < FACTS_PER_PERSON) chosen.add(Math.floor(random() * TEMPLATES.length));
    for (const t of chosen) {
      const template = TEMPLATES[t];
      let project = PROJECTS[projectAt++ % PROJECTS.length];
      if (PROJECT_TEMPLATES.has(template.name)) {
        while (told.has(`${template.name}/${project}`)) {
          project = PROJECTS[projectAt++ % PROJECTS.length];
        }
        told.add(`${template.name}/${project}`);
      }
      const { fact, questions: asks } = template.make(person, project, pick, dayOfMonth);
      const at = new Date(now.getTime() - (14 + Math.floor(random() * 70)) * day);
      const id = add(person, fact, at);
      const ask = asks[(n + t) % asks.length];
      const asker = pick(NAMES.filter((other) => other !== person));
      questions.push({
        query: `[${now.toISOString()}] ${asker}: ${ask}`,
        answer: id,
        template: template.name,
      });
    }
  }
  // Distractors: recent talk about the same people and projects.
  for (let i = 0; i < NAMES.length * 6; i++) {
    const at = new Date(now.getTime() - Math.floor(random() * 10) * day);
    add(pick(NAMES), pick(DISTRACTORS)(pick(NAMES), pick(PROJECTS)), at, "Sounds good.");
  }
  for (let i = 0; i < filler; i++) {
    const at = new Date(now.getTime() - Math.floor(random() * 120) * day);
    add(pick(NAMES), `${pick(FILLER)} (${i})`, at, "Thanks.");
  }
  return { exchanges, questions, now };
}
