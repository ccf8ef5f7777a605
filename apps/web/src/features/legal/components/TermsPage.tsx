import { List, Text, Title } from '@mantine/core';
import { ContactEmail, LegalPage, LegalSection } from './LegalPage';

export function TermsPage() {
  return (
    <LegalPage title="Terms of Service">
      <LegalSection title="Acceptance">
        <Text>
          These Terms of Service govern your use of VRCLink, the Discord bot and the companion website that
          link Discord accounts to VRChat accounts (together, "the Service"). By adding the bot to a server,
          signing in on the website or otherwise using the Service, you agree to these terms. If you do not
          agree, do not use the Service.
        </Text>
      </LegalSection>

      <LegalSection title="Use of the Service">
        <Title order={3} fz="h4">
          Eligibility
        </Title>
        <Text>
          You must be at least 13 years old to use the Service, and at least 16 years old to use it as a world
          creator (for example to manage worlds, world images or role encoding for worlds). You must also meet
          the minimum age required by Discord and VRChat in your country.
        </Text>
        <Text>
          An e-mail address is required to use Poster Management. Other features do not ask for one.
        </Text>
        <Title order={3} fz="h4">
          Account security
        </Title>
        <Text>
          You sign in through Discord. You are responsible for keeping your Discord and VRChat accounts secure
          and for all activity that happens through them on the Service. Tell us straight away if you believe
          your account has been used without your permission.
        </Text>
        <Title order={3} fz="h4">
          Prohibited conduct
        </Title>
        <Text>When using the Service you must not:</Text>
        <List spacing={4}>
          <List.Item>upload NSFW (sexual, graphic or otherwise adult) content;</List.Item>
          <List.Item>
            upload content that infringes the copyright, trademark or other rights of anyone else;
          </List.Item>
          <List.Item>violate the Terms of Service or Community Guidelines of Discord or VRChat;</List.Item>
          <List.Item>
            try to disrupt the Service, access data that is not yours, or link accounts you do not own.
          </List.Item>
        </List>
      </LegalSection>

      <LegalSection title="Poster Management">
        <Text>
          Poster Management lets world creators upload images to display in their VRChat worlds. You remain
          responsible for every image you upload and confirm that you have the right to use it. We may remove
          images that break these terms, and you can ask us to delete your images at any time.
        </Text>
      </LegalSection>

      <LegalSection title="Intellectual Property">
        <Text>
          The Service, its software, design and branding belong to the VRCLink team. You keep all rights to
          content you upload, and you grant us a limited licence to store, process and display it solely to
          provide the Service to you and your community. VRChat and Discord are trademarks of their respective
          owners; VRCLink is not affiliated with or endorsed by them.
        </Text>
      </LegalSection>

      <LegalSection title="Modifications">
        <Text>
          We may change, suspend or discontinue any part of the Service at any time, for example to add
          features, fix problems or follow changes to the Discord or VRChat platforms.
        </Text>
      </LegalSection>

      <LegalSection title="Disclaimer and Limitation of Liability">
        <Text>
          The Service is provided "as is" and "as available", without warranties of any kind. It depends on
          Discord and VRChat, which may change or interrupt their services. To the fullest extent permitted by
          law, we are not liable for any indirect, incidental or consequential damages, or for any loss of
          data, roles, access or revenue arising from your use of the Service.
        </Text>
      </LegalSection>

      <LegalSection title="Termination">
        <Text>
          We may suspend or end your access to the Service if you break these terms or misuse the Service. You
          may stop using the Service at any time by unlinking your account, logging out and removing the bot
          from your servers.
        </Text>
      </LegalSection>

      <LegalSection title="Changes">
        <Text>
          We may update these terms from time to time. The date at the top of this page shows when they last
          changed. Continuing to use the Service after a change means you accept the updated terms.
        </Text>
      </LegalSection>

      <LegalSection title="Contact">
        <Text>
          Questions about these terms? Contact us at <ContactEmail />.
        </Text>
      </LegalSection>
    </LegalPage>
  );
}
