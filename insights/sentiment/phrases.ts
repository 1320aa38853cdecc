/**
 * Domain phrases: multi-word expressions whose polarity is not the sum of their words ("not a
 * single ant since", "the ants came back", "on time", "worth every penny"). Each pattern is
 * matched against a sentence's lower-cased words joined by single spaces; a matched phrase is one
 * opinion with its own valence, and its words (negators included) are not read again.
 */
export const PEST =
  "(?:(?:bed )?bugs?|ants?|mice|mouse|rats?|(?:cock)?roach(?:es)?|termites?|spiders?|wasps?|hornets?|yellow ?jackets?|bees|fleas?|ticks?|" +
  "mosquito(?:e?s)?|skeeters|rodents?|critters?|pests?|scorpions?|silverfish|earwigs?|gophers?|moles?|voles?|squirrels?|raccoons?|" +
  "skunks?|(?:o)?possums?|pigeons?|flies|gnats?|moths?|beetles?|crickets?|centipedes?|millipedes?|stink bugs?|fruit flies|bites?|activity|droppings|sightings?|scratching|noises?|them|any|anything|one|a thing)";
const NOT =
  "(?:not|never|no|didn't|did not|don't|do not|doesn't|does not|haven't|have not|hasn't|has not|hadn't|had not|wasn't|was not|weren't|were not|won't|will not|wouldn't|would not|couldn't|could not|can't|cannot|nobody|no one)";
const ME = "(?:me|us|my \\w+|our \\w+|him|her|them)";
const NUM = "(?:a|an|one|two|three|four|five|six|\\d+|several|a few|a couple(?: of)?|multiple)";

/** [pattern, valence]: earlier patterns win where matches overlap. */
const PATTERNS: [string, number][] = [
  // Effectiveness.
  [`${PEST} (?:${NOT}|never) (?:came|come|returned|been back|come back|came back|reappeared)`, 2.2],
  [
    `(?:no more|not (?:a|one)(?: single)?|not any|zero|nary a|no sign of|no signs of|no trace of|no evidence of)(?: (?:sign|signs|trace) of)?(?: (?:a|any|live|more|new|the))? ${PEST}`,
    2.2,
  ],
  [`(?:no|zero) ${PEST}(?= ,| ;| !|$)`, 2],
  // "It's been over a month, not a sound": the noises the customer called about, gone.
  [`not (?:a|one) (?:single )?(?:sound|peep|squeak|scratch|scratching|chirp)`, 2],
  // "No mice this fall!", "No bugs after the follow up": a sentence that opens with no pests.
  [`^(?:no|zero) (?:more )?${PEST}`, 2],
  [`no ${PEST} (?:since|anymore|any more|now|at all|in sight|left|whatsoever|for \\w+|in|inside|on|around)`, 2.2],
  [
    `${NOT} (?:seen|had|noticed|found|spotted|heard|seen or heard|had any|had a|had one|been bothered by|had to deal with)(?: \\w+){0,3} (?:since|again|anymore|any more|${PEST})`,
    2.2,
  ],
  [
    `${PEST} (?:are |is |were |was |have been |has been |seem to be |appear to be |all |completely |totally |finally |now )*(?:gone|history|eliminated|dead|under control|taken care of)`,
    2,
  ],
  [`${PEST} free`, 2],
  [`(?:problem|issue|infestation) (?:is |was |has been |got )?(?:solved|fixed|resolved|gone|handled|under control)`, 2],
  [`(?:got|get|gets|getting|gotten) rid of`, 1.8],
  [`(?:took|take|takes|taken|taking) care of`, 1.6],
  [`(?:wiped|knocked|cleared|cleaned) (?:them |it |everything )?out`, 1.4],
  [`(?:killed|kill|kills|wiped) (?:all|every|them|off|it|everything|the colony|the nest)`, 1.2],
  [`under control`, 1.5],
  [
    `(?:is|are|was|were|seems? to be|seemed to be|has been|have been|been) (?:really |definitely |totally |finally |actually |still )?working`,
    1.4,
  ],
  [`out of control`, -1.8],
  [
    `(?:did|does|do) the (?:trick|job)|did its job|(?:worked|works|working) like a charm|(?:worked|works|working) (?:great|perfectly|wonders)`,
    2.1,
  ],
  [
    `${PEST} (?:(?:are|were|have been|keep|kept|are still|were still|started|start|starts) )?(?:coming|came|come|comes|creeping|crawling) (?:right |straight |all |right on |back )*back`,
    -2.3,
  ],
  [
    `${PEST} (?:came|come|comes|coming|returned|are back|were back|is back|was back|reappeared|never left|keep returning|kept returning|are returning|are everywhere|were everywhere|all over)`,
    -2.1,
  ],
  [`back within (?:a |two |three |\\d+ )?(?:days?|weeks?)`, -1.2],
  [`brought (?:them|it|the \\w+|\\w+) (?:right |all |straight )?back`, -2],
  [
    `(?:not|hardly|barely|don't see|didn't see|do not see|did not see) (?:much|any|a lot of|a) (?:of a )?difference|(?:said|told (?:me|us)|insisted)(?: that)?(?: \\S+){0,8} (?:i|we) (?:needed|need|should get) (?:the|a|an|their)`,
    -1.6,
  ],
  [`adds? up (?:fast|quickly|quick)|(?:the )?only (?:downside|down side|complaint|negative|gripe|con)|^fix (?:that|the|your|their)`, -1.5],
  [`still (?:nothing|none|clear|no sign|no ${PEST}|(?:ant|bug|pest|mouse|mice|roach|spider|termite) free)`, 1.8],
  [
    `still (?:seeing|see|saw|seen|have|has|had|getting|get|got|finding|find|found|hearing|hear|dealing with|having|being bitten|bitten|there|around|alive|active|crawling|coming|showing up)(?! no\\b| zero\\b| none\\b| nothing\\b)`,
    -2,
  ],
  [
    `${NOT} (?:work|worked|help|helped|do anything|do a thing|make a difference|made a difference|solve|fix|fixed|solved|get rid of|kill|touch the problem)`,
    -2,
  ],
  [`(?:did|does|do) (?:absolutely )?nothing|made no difference|no difference`, -2],
  [`waste of (?:money|time)`, -2.5],
  [
    `(?:barely|hardly|never|didn't|did not|doesn't|does not) (?:made|make|makes|put|puts) (?:a|any) dent|wore off|wears off|wearing off|eye watering`,
    -1.8,
  ],
  [`(?:got|get|gets|getting|still getting|was|were|been) (?:bit|bitten)|bit again|bites again`, -2],
  // The pests back or still there, told without naming them (the recall checks of rounds 5-9).
  [
    `(?:they're|they are) still (?:in the|all over|everywhere|coming (?:in|back|out))|(?:hearing|hear|seeing|see|finding|find) (?:something|them|it|more|one|another)(?: \\w+){0,6} again`,
    -2,
  ],
  [
    `(?:days?|weeks?|months?) later(?: ,)? (?:nothing|not a (?:single )?(?:one|thing|sign))|(?:quiet|silent|peaceful) (?:ever )?since|(?:only|just) (?:found|seen|saw|had) (?:one|1|a single)(?: dead)?(?: ones?)? since`,
    2,
  ],
  // What the customer would not have found, found: praise of the visit.
  [
    `(?:i|we) (?:never|would never|wouldn't|would not) (?:would |have |would have )?(?:found|noticed|spotted|seen|thought (?:to check|of))`,
    1.6,
  ],
  [`(?:can|could) (?:actually|finally|now) (?:sit|eat|be|go) outside`, 1.8],
  [`(?:just |only )?wish (?:they|you|there) (?:had|were) more`, -1.3],
  // A complaint that the visit should have found it: "That should have been done the first time".
  [
    `(?:should have|should've|could have|could've|if it had|if they had|if he had|if she had) (?:been )?(?:done|found|figured (?:it )?out|caught|sealed|fixed|spotted)(?: \\w+){0,3} the first time`,
    -1.8,
  ],
  // Punctuality.
  [`(?:right|exactly|bang|spot) on time|on the dot|right when (?:he|she|they) said`, 2],
  [`on time`, 1.8],
  [`ahead of (?:time|schedule)|(?:arrived|came|showed up|got here) early|early in the window`, 1.2],
  [`(?:in|within) the (?:time |arrival )?window|when (?:he|she|they) said (?:they|he|she) would`, 1.2],
  [
    `(?:showed up|arrived|came|was|were|is|are|running|ran|always) (?:(?:about|around|over|almost|nearly|like|at least) )?(?:(?:a bit|a little|very|really|so|super|way|always|often|again|quite|pretty|extremely|slightly|somewhat|an? \\w+|\\d+ \\w+) )?(?:late|behind)|behind schedule`,
    -1.8,
  ],
  [
    `no show|(?:never|didn't|did not|nobody|no one|no one ever) (?:showed|show|came|arrived|turned up)(?: up)?|stood (?:me|us) up|(?:must have |)missed (?:us|me|the appointment|our appointment|my appointment)`,
    -2.5,
  ],
  [
    `(?:waited|waiting|wait) (?:for )?(?:over |almost |nearly |about |more than |another |an extra )?${NUM} (?:more )?(?:hours?|days?|weeks?)`,
    -1.6,
  ],
  [
    `(?:had|have|has) to (?:call|ask|chase|email|keep calling|keep asking|call back|remind)|(?:called|emailed|asked) (?:three|four|five|several|multiple|\\d+) times`,
    -1.5,
  ],
  [`(?:had|have|has) to wait|long wait|waited (?:forever|and waited|all day|all morning)`, -1.6],
  [`(?:no|short|didn't have to|did not have to) wait`, 1.2],
  // Scheduling and responsiveness.
  [`same day|next day|same week|(?:got|get|fit|squeezed|squeeze|worked) ${ME} in`, 1.5],
  [
    `(?:called|call|calls|got|get|gets|texted|emailed|wrote) (?:${ME} )?back (?:quickly|right away|promptly|immediately|within|the same|fast|in minutes|in an hour)`,
    1.8,
  ],
  [
    `(?:never|didn't|did not|nobody|no one|never once|won't|wouldn't) (?:called|call|returned|return|got|get|answered|answer|responded|respond|picked up|pick up)(?: ${ME})?(?: back| my calls?| our calls?| the phone)?`,
    -2.2,
  ],
  [`returned (?:my|our) (?:calls?|messages?|emails?)`, 1.5],
  [
    `(?:rescheduled|reschedule|cancelled|canceled|cancel|moved) (?:(?:on )?${ME} |our appointment |my appointment |the appointment )?(?:twice|again|three times|multiple times|several times|last minute|at the last minute|without)`,
    -2,
  ],
  [`last minute|last-minute`, -0.6],
  [`(?:hard|impossible|difficult|tough) to (?:reach|get ahold|get hold|get through|schedule|book|get an appointment)`, -2],
  [`on hold|run ?around|voicemail`, -1.2],
  // Explaining and keeping the customer informed.
  [`walked ${ME} through|(?:took|take|takes|taking) (?:the|his|her|their) time`, 1.6],
  [`answered (?:all |every |each |any |all of )?(?:my |our |the )?(?:questions?|concerns?)`, 1.8],
  [`kept ${ME} (?:informed|updated|posted|in the loop)|(?:called|texted) ahead|heads up`, 1.5],
  [`${NOT} (?:explain|explained|tell|told|say|said|answer|mention|mentioned|communicate|let ${ME} know|warn|warned)`, -1.6],
  [`(?:no|zero|never got an?|without any|without an?) (?:explanation|heads up|call|notice|warning|update|communication|follow up)`, -1.6],
  // Price and value.
  [
    `(?:no|zero|without|never any) (?:hidden|surprise|extra|unexpected) (?:fees?|charges?|costs?)|no surprises|no upsell(?:ing)?|(?:not|never|wasn't|weren't) pushy`,
    1.6,
  ],
  [`(?:hidden|surprise|extra|unexpected|added|additional) (?:fees?|charges?)`, -1.8],
  [`worth (?:every (?:penny|cent|dollar)|it|the (?:money|price|cost|investment|wait|trip)|every bit)`, 2],
  [`rip ?off|ripped (?:${ME} )?off|price goug(?:ing|ed)`, -2.5],
  [`(?:more|much more|twice|double) (?:than|what) (?:(?:they|he|she|we|i) )?(?:expected|quoted|estimated|was quoted)`, -1.6],
  [`(?:exactly|just) what (?:they|he|she|we) (?:quoted|estimated|said)|matched the quote|as quoted`, 1.4],
  [`(?:good|great|fair|excellent|honest|best|reasonable|competitive) (?:price|prices|pricing|value|deal|rates?)`, 1.8],
  // Safety.
  [`(?:pet|kid|child|family|baby|dog|cat|eco)s? (?:safe|friendly)`, 1.8],
  [`(?:no|zero|barely any|hardly any|not much|didn't notice any|never noticed any|without any) (?:smell|odor|odour|fumes|residue)`, 1.3],
  [`(?:smelled|smells|stunk|stinks|reeked|reeks)|(?:strong|bad|awful|terrible|lingering|chemical|nasty) (?:smell|odor|odour)`, -1.4],
  [`(?:got|get|became|was|were) sick|made (?:${ME}|him|her) sick|threw up|vomit\\w*`, -2.2],
  // Cleanliness.
  [`(?:left|leaving|leaves|made|makes) (?:a |the |such a |an |huge |big )*(?:mess|footprints|debris|trash|garbage|dirt|mud)`, -2],
  [`tracked (?:mud|dirt|in)|(?:mud|dirt) (?:all )?(?:over|on) (?:the|our|my)`, -1.8],
  [
    `cleaned up|picked up after|wiped (?:up|down)|shoe covers|booties|(?:left|leaving) (?:no|zero) (?:mess|trace)|no mess|left (?:it|everything) (?:cleaner|clean|spotless|tidy)`,
    1.6,
  ],
  // Follow-up and warranty.
  [
    `(?:came|come|comes|coming) (?:right )?back (?:out )?(?:for free|at no (?:extra )?(?:cost|charge)|free of charge|no charge|the next day|the same day|within|to (?:re ?treat|retreat|spray|check|re ?spray|follow up|finish|make it right))`,
    1.8,
  ],
  [
    `(?:free|no charge|no cost|complimentary) (?:re ?treatments?|retreatments?|follow ups?|visits?|callbacks?|service calls?)|(?:at no|no) (?:extra |additional )?(?:cost|charge)`,
    1.7,
  ],
  // "They came back and sealed the gap without charging": the free fix, however grudging the review.
  [`without (?:charging|an? (?:extra |additional )?charge|(?:any )?(?:extra |additional )?cost)(?: (?:me|us|extra|anything|for it))?`, 1.6],
  [
    `(?:honored|honoured|stood behind|stand behind|stands behind|backed|backs) (?:the |their |our |its |his )?(?:warranty|guarantee|work)`,
    2,
  ],
  [`(?:wouldn't|would not|refused to|won't|will not|did not|didn't) (?:honor|honour|cover|come back|stand behind|refund)`, -2.2],
  [`(?:charged|charge|billed|bill) ${ME} (?:again|twice|for the (?:re ?treatment|follow up|callback|second visit))`, -1.8],
  // "They followed up", not the noun ("dropped the ball on the follow up" is no praise).
  [`(?<!(?:the|a|an|their|his|her|our|my|no|any|great|good) )follow(?:ed|s)? up|checked (?:in|back)`, 1],
  // Selling.
  [
    `hard sell|sales ?pitch|(?:trying|tried|try|kept trying) to (?:sell|sign|upsell|push|talk|get) (?:me|us)|more time (?:trying to )?(?:sell|selling|sign|signing|pitch|pitching)|timeshare|being sold to|felt like a (?:sales )?pitch|(?:kept|keeps|kept on|was|were) (?:pushing|selling)|(?:pushed|pushing|push) (?:the |a |an |their |his |her )?(?:\\w+ )?(?:plan|contract|package|add-?ons?|upgrade)`,
    -1.8,
  ],
  // Dismissals and waits: "what's the point of a guarantee", "all they said was…", "the earliest they could come was…".
  [
    `what(?:'s| is) the point|all (?:they|he|she|the office) (?:said|told (?:me|us)|did|would say) was|(?:earliest|soonest) (?:they|he|she|anyone) could|had to (?:throw|toss) (?:out|away)`,
    -1.5,
  ],
  // A wish for what did not happen: "I would've liked a call first", "would've been 5 stars if...".
  [
    `would(?:'ve| have) (?:liked|preferred|appreciated|wanted)|(?:i|we) wish (?:he|she|they|someone|somebody|the \\w+)|would(?:'ve| have) been (?:5|five|4|four) stars|(?:should|could)(?:'ve| have) (?:called|told|said|warned|mentioned|let)`,
    -1.6,
  ],
  // Whole-experience expressions.
  [
    `(?:won't|will not|wouldn't|would not|never going to|not going to|will never|would never) (?:use|hire|call|book|go back|return|be back|be using|recommend|ever use)`,
    -2.3,
  ],
  [
    `(?:will|would|\\w+'ll|\\w+'d|definitely|absolutely|gladly) (?:use|hire|call|book) (?:them|again|this company)|customers? for life`,
    1.8,
  ],
  [
    `(?:no|zero|not (?:a |one )?single|not any|not one|never had (?:a|an|any)|never (?:any|a)|without (?:a|any)) (?:complaints?|problems?|issues?|regrets?|hiccups?|hassles?)`,
    1.6,
  ],
  [`nothing (?:special|great|impressive|to write home about)|not (?:impressed|happy|satisfied|pleased)`, -1.6],
  [`(?:could|should) have been better|left (?:a lot|much) to be desired|leaves (?:a lot|much) to be desired`, -1.8],
  [`to die for|must (?:try|have)|second to none|the real deal`, 2.2],
  // Faint praise, and what any reviewer says of a place they will (or won't) come back to.
  [
    `(?:just|only|merely|barely|at best) (?:ok|okay|alright|fine|decent|average|passable|edible)|(?:ok|okay|average|mediocre|decent|edible) at best|good luck (?:getting|finding|trying|with)`,
    -1.2,
  ],
  [
    `melts? in (?:your|my|the) mouth|kick ?ass|can't wait (?:to|for|until|till)|(?:(?:i|we) (?:will|would|definitely will|will definitely|hope to|have to|can't wait to)|i'll|we'll|i'd|we'd) (?:definitely )?(?:go back|come back|return|be back|be returning)`,
    1.8,
  ],
  [`so so|nothing like (?:the|its|their|what|it)|(?:better|best) spent elsewhere|(?:go|look|eat) elsewhere`, -1.2],
  // Advice: "try the dumplings", "skip the dessert".
  [
    `^(?:you (?:have|need|ought) to |you must |definitely |be sure to |make sure to |do )?(?:try|order|get) (?:the|their|some|any of the)`,
    1.4,
  ],
  [`(?:skip|avoid|pass on|stay away from|steer clear of) (?:the|their|this|that|any)`, -1.6],
  [`(?:5|five|4|four|10|ten) stars?|10 ?10`, 1.8],
  [`(?:0|zero|1|one|2|two) stars?`, -1.5],
  [`(?:didn't|did not|wouldn't|would not|never) (?:even )?charge`, 1.6],
  [`expect(?:ed|ing) (?:more|better)|talked down to|talks down to|dragg(?:ed|ing) (?:their|his|her|its) feet`, -1.6],
  [
    `(?:could|should|can) (?:be|have been|use some) (?:improved|better)|needs? (?:some )?(?:improvement|work)|room for improvement|nothing out of (?:the )?ordinary|not enough|over ?cooked|under ?cooked|crapped out|gave out|stopped working|quit working|died on (?:me|us)`,
    -1.5,
  ],
  [
    `too (?:long|short|small|big|slow|loud|salty|sweet|greasy|cold|hot|noisy|crowded|heavy|dark|dim|much|many|little|few|slick|bright|thin|thick|dry|oily|spicy|bitter|sour|tight|loose|high|low|pricey|expensive|late|early|far|rushed|busy|strong|weak)`,
    -1.4,
  ],
  [`all clear|(?:came back|was|were) clean`, 1.5],
  [`dropped the ball|(?:more|a lot more) (?:hassle|trouble|work) than (?:it )?(?:should|needed|had to)`, -1.8],
  [`(?:on the )?(?:high|pricey|expensive) (?:end|side)`, -1.2],
  [
    `(?:raised|increased|hiked|jacked up|bumped up) (?:the |their |our |my )?(?:price|prices|rates?|fees?|cost)|(?:price|prices|rates?|fees?|cost|plan|service) (?:went|goes|has gone|keeps going|is going|are going) up`,
    -1.6,
  ],
  // A wish for what did not happen: "a heads up would have been nice".
  [`would(?:'ve| have) been (?:nice|good|great|helpful|better)`, -1.4],
  [`(?:that's |this is )?(?:what|how) (?:a|an) \\w+ (?:should|is supposed to) (?:look like|be|work)`, 1.5],
  [
    `can't (?:say enough|recommend (?:them |it |this \\w+ )?enough|complain|beat)|couldn't (?:be happier|ask for more|recommend (?:them )?enough)`,
    2.4,
  ],
];

/**
 * All patterns as one sticky regular expression, one capturing group each, tried at each word's
 * start: the leftmost phrase wins, and at the same place the one listed first.
 */
export const PHRASES = compile(PATTERNS);

function compile(patterns: [string, number][]): { pattern: RegExp; valences: number[] } {
  for (const [source] of patterns) {
    if (/(?<!\\)\((?!\?)/.test(source)) throw new Error(`phrase pattern has a capturing group: ${source}`);
  }
  return {
    pattern: new RegExp(`(?<![\\w'])(?:${patterns.map(([source]) => `(${source})`).join("|")})(?![\\w'])`, "y"),
    valences: patterns.map(([, valence]) => valence),
  };
}
