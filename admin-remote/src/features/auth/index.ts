export { LoginForm, LOGIN_FAILED_MESSAGE, LOGIN_SUCCESS_MESSAGE } from './components/LoginForm';
export { RegisterForm, REGISTER_REFUSED_MESSAGE } from './components/RegisterForm';
export { RequireStaff } from './components/RequireStaff';
export { LogoutButton } from './components/LogoutButton';
export { LogoutEverywhereButton, LogoutEverywhereText } from './components/LogoutEverywhereButton';
export { ForgotPasswordForm } from './components/ForgotPasswordForm';
export { ResetPasswordForm } from './components/ResetPasswordForm';
export { RequireAdmin } from './components/RequireAdmin';
export { SecondFactorGate, SecondFactorText } from './components/SecondFactorGate';
