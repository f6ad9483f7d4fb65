import { CodeIcon, HeartHandIcon, ShieldIcon, StethoscopeIcon, ChartIcon, MailIcon } from './icons';
import { CardGrid, IconBadge, InfoCard, Prose, PublicPage, Section, SectionTitle } from './PublicPage';

const ROLES = [
  {
    Icon: StethoscopeIcon,
    title: 'Clinical lead',
    text: 'A practising physician who shapes how records, prescriptions and summaries fit into real consultations, and reviews every clinical feature before release.',
  },
  {
    Icon: CodeIcon,
    title: 'Engineering',
    text: 'Builds and runs the platform: reliable, accessible on every device, and careful with every piece of health data it stores.',
  },
  {
    Icon: HeartHandIcon,
    title: 'Patient advocate',
    text: 'Brings the patient’s voice into every decision, so that records and summaries are understandable and patients stay in control of their connections.',
  },
  {
    Icon: ShieldIcon,
    title: 'Security and privacy',
    text: 'Looks after access control, two-factor authentication and data protection, so that only connected doctors and patients see a record.',
  },
  {
    Icon: ChartIcon,
    title: 'Product and design',
    text: 'Turns feedback from clinics and patients into clear, simple workflows that save time at every step of care.',
  },
  {
    Icon: MailIcon,
    title: 'Support',
    text: 'Helps doctors and patients get started, answers questions and passes their ideas on to the rest of the team.',
  },
];

/** /team: the roles behind CareLoop. */
export default function Team() {
  return (
    <PublicPage
      eyebrow="Our team"
      title="The people behind CareLoop"
      lead="Clinicians, engineers and patient advocates working together to make clinical decision support simple, safe and useful."
    >
      <Section aria-labelledby="team-roles">
        <SectionTitle id="team-roles">Who does what</SectionTitle>
        <CardGrid>
          {ROLES.map(({ Icon, title, text }) => (
            <InfoCard key={title}>
              <IconBadge>
                <Icon />
              </IconBadge>
              <h3>{title}</h3>
              <p>{text}</p>
            </InfoCard>
          ))}
        </CardGrid>
      </Section>
      <Section aria-labelledby="team-how">
        <SectionTitle id="team-how">How we work</SectionTitle>
        <Prose>
          <p>
            Every feature starts with a clinical need and is reviewed by clinicians and patients before it ships. We measure
            success by one question: does it help someone make a better-informed care decision?
          </p>
        </Prose>
      </Section>
    </PublicPage>
  );
}
