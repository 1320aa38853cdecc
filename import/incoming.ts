/** A review as a source gives it, before it is merged into DATA_DIR. */
export interface Incoming {
  /** Where it was read, for the report: `google.json reviews[3]`, `survey.csv row 4`. */
  where: string;
  file: string;
  /** `row 4`, `reviews[3]`. */
  record: string;
  platform: "google" | "csv";
  sourceId: string;
  /** The business's local day the review was written. */
  date: string;
  rating: number;
  author: string;
  /** Absent for a rating without text, which is counted and never written. */
  text?: string;
  /** The platform's time of the customer's last edit, in UTC (Google's updateTime when later than createTime). */
  edited?: string;
  response?: { date: string; text: string };
  /** Nobody's name to match a visit with (Google's anonymous reviewers). */
  anonymous?: boolean;
  /** Kept in memory to match a visit; never written anywhere. */
  email?: string;
  phone?: string;
  /** What the source's own columns name (a survey's technician, service and city columns), as written. */
  named: { technicians: string[]; services: string[]; area?: string; job?: string };
}
