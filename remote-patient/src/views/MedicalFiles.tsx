import { ButtonLink, Heading, MedicalFileList, Page, Row } from '@careloop/shared-ui';

export default function MedicalFiles() {
  return (
    <Page>
      <Row style={{ justifyContent: 'space-between' }}>
        <Heading>Medical files</Heading>
        <ButtonLink to="/patient/dashboard/medical-files/upload">Upload</ButtonLink>
      </Row>
      <MedicalFileList />
    </Page>
  );
}
