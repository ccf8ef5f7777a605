import { Anchor, List, Text } from '@mantine/core';
import { Link } from 'react-router';
import { ContactEmail, LegalPage, LegalSection } from './LegalPage';

export function PrivacyPolicyPage() {
  return (
    <LegalPage title="Privacy Policy">
      <Text>
        This policy explains what personal data VRCLink collects, why, how long we keep it and the rights you
        have over it.
      </Text>

      <LegalSection title="Data We Collect">
        <List spacing={4}>
          <List.Item>
            From Discord, when you sign in: your Discord user ID, username, avatar, and the servers and roles
            relevant to the bot.
          </List.Item>
          <List.Item>
            From VRChat, when you link an account: your VRChat user ID, display name, profile bio (to check
            the verification code), group memberships and age-verification status.
          </List.Item>
          <List.Item>
            API logs: the endpoint called, the time, the API key used and the requesting IP address.
          </List.Item>
        </List>
      </LegalSection>

      <LegalSection title="Poster Management: E-mail and Images">
        <Text>
          If you use Poster Management we collect your e-mail address, so we can reach you about your uploads,
          and the images you upload, so they can be shown in your worlds.
        </Text>
      </LegalSection>

      <LegalSection title="How We Use Your Data">
        <Text>
          We use your data only to provide the Service: linking accounts, assigning and synchronising roles
          and group memberships, verifying account ownership and age, encoding roles into worlds, answering
          API requests, and preventing abuse. We do not sell your data or use it for advertising.
        </Text>
      </LegalSection>

      <LegalSection title="Data Retention and Deletion">
        <List spacing={4}>
          <List.Item>Most personal data is kept for up to 72 hours or until you log out.</List.Item>
          <List.Item>API logs are kept for one month.</List.Item>
          <List.Item>Your e-mail address is kept while your account is active.</List.Item>
          <List.Item>Uploaded images are kept until you request their deletion.</List.Item>
        </List>
        <Text>
          Unlinking your account removes the link between your Discord and VRChat accounts. On your profile
          page, 'Download My Data' gives you everything we hold about you as a JSON file, and 'Delete My
          Account' (confirmed by typing your username) unlinks your accounts, takes back the roles the bot
          gave you because of the link, signs you out everywhere and erases your data within minutes. Entries
          in a server's audit log that must stay are kept under a random pseudonym, without your name or IDs.
          While you remain a member of a Discord server with the bot, the bot still sees you there as Discord
          shows you to it. For anything else, contact us using the address below.
        </Text>
      </LegalSection>

      <LegalSection title="Your Rights under the GDPR">
        <Text>
          If you are in the European Economic Area or the United Kingdom, you have the right to access,
          correct, delete and export your personal data, to restrict or object to its processing, and to lodge
          a complaint with your data protection authority. You can download or delete your data yourself from
          your profile page; to exercise the other rights, contact us; we answer within one month.
        </Text>
      </LegalSection>

      <LegalSection title="Security">
        <Text>
          Data is sent over encrypted connections, access tokens are encrypted at rest, and access to the
          systems that hold your data is limited to what running the Service requires. No system is perfectly
          secure, but we work to protect your data and will inform you of any breach that affects you.
        </Text>
      </LegalSection>

      <LegalSection title="Cookies">
        <Text>
          We use session cookies only: one keeps you signed in and one protects you against cross-site request
          forgery. They are removed when you log out or your session ends. We use no tracking or advertising
          cookies.
        </Text>
      </LegalSection>

      <LegalSection title="Third-Party Sharing">
        <Text>
          We share data only with the platforms the Service works with: Discord and VRChat, to link accounts
          and manage roles and groups, and a static-pages host that serves encoded role data to your worlds.
          The copy on that host holds only the current data: each update replaces it entirely, keeping no
          history, so data removed here (an unlink, a deleted account, a world no longer published) is gone
          from it with its next update, within about 10 minutes. We do not share your data with anyone else
          unless the law requires it.
        </Text>
      </LegalSection>

      <LegalSection title="Changes to This Policy">
        <Text>
          We may update this policy. The date at the top of this page shows when it last changed, and
          significant changes are announced on our support server. See also our{' '}
          <Anchor component={Link} to="/tos">
            Terms of Service
          </Anchor>
          .
        </Text>
      </LegalSection>

      <LegalSection title="Contact">
        <Text>
          For privacy questions or requests, contact us at <ContactEmail />.
        </Text>
      </LegalSection>
    </LegalPage>
  );
}
