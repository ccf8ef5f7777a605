export { givenRoleChoice, type RoleChoiceSource, type RoleUnavailable } from './roleChoice';
