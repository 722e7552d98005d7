export { LoginForm, LOGIN_FAILED_MESSAGE, LOGIN_SUCCESS_MESSAGE } from './components/LoginForm';
export { RegisterForm, REGISTER_REFUSED_MESSAGE } from './components/RegisterForm';
export { RequireStaff } from './components/RequireStaff';
export { LogoutButton } from './components/LogoutButton';
